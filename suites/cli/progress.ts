import type { ProgressEvent } from '../core/runner';

/** A live status line on a terminal; one plain line per check elsewhere (CI logs). */
export function progressPrinter(stream: NodeJS.WriteStream = process.stderr): (e: ProgressEvent) => void {
  const started = Date.now();
  const tty = Boolean(stream.isTTY) && !process.env.CI;
  const failures: Record<string, number> = {};
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  return (e) => {
    if (e.type === 'api-start') {
      failures[e.api] = 0;
      const line = `${e.api}: ${e.checks} checks against ${e.embedded ? `the embedded reference implementation (${e.baseUrl})` : e.baseUrl}`;
      stream.write(tty ? `\r\x1b[K${line}\n` : `${line}\n`);
      return;
    }
    failures[e.api] += e.failed;
    const group = e.check.split('.').slice(0, 2).join('.');
    const verdict = e.outcome === 'ran' ? (e.failed ? `FAILED (${e.failed})` : 'ok') : e.outcome;
    if (tty) stream.write(`\r\x1b[K[${elapsed()}] ${e.api} ${e.index}/${e.total} ${group} · ${failures[e.api]} failed assertions so far`);
    else stream.write(`[${elapsed()}] ${e.api} ${e.index}/${e.total} ${e.check} ${verdict} (${Math.round(e.ms)} ms)\n`);
    if (tty && e.index === e.total) stream.write('\n');
  };
}
