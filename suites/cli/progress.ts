import type { ProgressEvent } from '../core/runner';

export interface ProgressOptions {
  /** A live status line (terminal) or plain lines (logs); default: whether the stream is a terminal and CI is unset. */
  tty?: boolean;
  /** Terminal: how often the live line is redrawn. */
  refreshMs?: number;
  /** Logs: a line at least this often while a check runs (none while checks end quicker than that). */
  heartbeatMs?: number;
}

export interface ProgressPrinter {
  (e: ProgressEvent): void;
  /** Stops the timer and leaves the terminal line clean. */
  close(): void;
}

interface ApiState {
  total: number;
  done: number;
  failed: number;
  requests: () => number;
  /** Checks under way, with when each started. */
  running: Map<string, number>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;

/**
 * Progress on stderr. On a terminal: one live line (each API's current check, requests so far, elapsed time),
 * redrawn every half second. In logs: one plain line per check, and while a check runs longer than the heartbeat
 * a line every heartbeat saying which check is still running, so a slow run never goes quiet.
 */
export function progressPrinter(stream: NodeJS.WriteStream = process.stderr, o: ProgressOptions = {}): ProgressPrinter {
  const started = Date.now();
  const tty = o.tty ?? (Boolean(stream.isTTY) && !process.env.CI);
  const heartbeatMs = o.heartbeatMs ?? 10_000;
  const apis = new Map<string, ApiState>();
  let lastLine = Date.now();
  let live = '';
  const elapsed = () => seconds(Date.now() - started);

  const write = (text: string) => {
    lastLine = Date.now();
    stream.write(text);
  };
  /** A whole line, above the live line on a terminal. */
  const line = (text: string) => {
    if (tty) {
      write(`\r\x1b[K${text}\n`);
      draw();
    } else write(`${text}\n`);
  };

  function liveText(): string {
    const parts: string[] = [];
    for (const [api, s] of apis) {
      if (s.done >= s.total && !s.running.size) continue;
      const current = [...s.running.keys()];
      const check = current.length ? `${current[current.length - 1]}${current.length > 1 ? ` +${current.length - 1}` : ''}` : '…';
      parts.push(`${api} ${s.done}/${s.total} ${check} · ${s.requests()} requests${s.failed ? ` · ${s.failed} failed` : ''}`);
    }
    return parts.length ? `[${elapsed()}] ${parts.join(' │ ')}` : '';
  }

  let drawn = 0;
  /** Redraws the live line; events redraw it at most every 100 ms (the timer keeps it current). */
  function draw(throttle = false): void {
    if (!tty || (throttle && Date.now() - drawn < 100)) return;
    drawn = Date.now();
    let text = liveText();
    const width = stream.columns || 120;
    if (text.length > width - 1) text = `${text.slice(0, Math.max(0, width - 2))}…`;
    if (text === live && !text) return;
    live = text;
    stream.write(`\r\x1b[K${text}`);
  }

  function heartbeat(): void {
    const now = Date.now();
    if (now - lastLine < heartbeatMs) return;
    const running: string[] = [];
    for (const [api, s] of apis) {
      for (const [check, since] of s.running)
        running.push(`${api} ${check} (running for ${seconds(now - since)}, ${s.requests()} requests so far)`);
    }
    if (running.length) write(`[${elapsed()}] still running: ${running.join('; ')}\n`);
  }

  const timer = setInterval(() => (tty ? draw() : heartbeat()), tty ? (o.refreshMs ?? 500) : Math.min(1000, heartbeatMs));
  timer.unref();

  const printer = ((e: ProgressEvent) => {
    if (e.type === 'api-start') {
      apis.set(e.api, { total: e.checks, done: 0, failed: 0, requests: e.requests, running: new Map() });
      line(`${e.api}: ${e.checks} checks against ${e.embedded ? `the embedded reference implementation (${e.baseUrl})` : e.baseUrl}`);
      return;
    }
    const s = apis.get(e.api);
    if (!s) return;
    if (e.type === 'check-start') {
      s.running.set(e.check, Date.now());
      draw(true);
      return;
    }
    s.running.delete(e.check);
    s.done = e.index;
    s.failed += e.failed;
    const verdict = e.outcome === 'ran' ? (e.failed ? `FAILED (${e.failed})` : e.warned ? `warned (${e.warned})` : 'ok') : e.outcome;
    if (!tty) write(`[${elapsed()}] ${e.api} ${e.index}/${e.total} ${e.check} ${verdict} (${Math.round(e.ms)} ms)\n`);
    else if (e.index === e.total)
      line(`${e.api}: ${e.total} checks done in ${elapsed()} · ${s.requests()} requests · ${s.failed} failed MUST assertions`);
    else if (e.failed) line(`${e.api} ${e.check} FAILED (${e.failed})`);
    else draw(true);
  }) as ProgressPrinter;
  printer.close = () => {
    clearInterval(timer);
    if (tty && live) stream.write('\r\x1b[K');
    live = '';
  };
  return printer;
}
