import { factLines } from '../expect';
import type { ComplianceReport } from './model';
import { incompleteText } from './verdict';

const x = (s: string) =>
  s
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these control characters, so they are removed on purpose
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** One testsuite per API, one testcase per requirement; SHOULD failures are not JUnit failures. */
export function renderJunit(r: ComplianceReport): string {
  const incomplete = r.summary.gate === 'incomplete';
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${x(r.summary.partial ? `conformance (partial: ${r.summary.partial})` : 'conformance')}" tests="${r.summary.total + (incomplete ? 1 : 0)}" failures="${r.summary.byLevel.MUST.failed + (incomplete ? 1 : 0)}" time="${(r.run.durationMs / 1000).toFixed(3)}">`,
  ];
  // A test reporter that only counts failures must not read an interrupted run as green: the run itself is a case.
  if (incomplete) {
    out.push('  <testsuite name="run" tests="1" failures="1" errors="0" skipped="0">');
    out.push(
      `    <testcase classname="run" name="the conformance run completed"><failure message="${x(`INCOMPLETE: ${incompleteText(r.summary)}`)}"/></testcase>`,
    );
    out.push('  </testsuite>');
  }
  for (const a of r.apis) {
    const reqs = r.requirements.filter((q) => q.api === a.api);
    const failures = reqs.filter((q) => q.status === 'failed' && q.level === 'MUST').length;
    const errors = reqs.filter((q) => q.status === 'error').length;
    const skipped = reqs.filter((q) => q.status === 'skipped' || q.status === 'untested').length;
    out.push(
      `  <testsuite name="${x(a.api)}" tests="${reqs.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${(a.stats.ms / 1000).toFixed(3)}">`,
    );
    for (const q of reqs) {
      out.push(`    <testcase classname="${x(`${a.api}.${q.group}`)}" name="${x(`${q.id} [${q.level}] ${q.summary}`)}">`);
      if (q.status === 'failed' && q.level === 'MUST') {
        const first = q.evidence[0];
        out.push(
          `      <failure message="${x(`${first?.message ?? 'failed'}${q.hint ? ` (hint: ${q.hint})` : ''}`)}">${x(q.evidence.map((e) => `${[e.message, ...factLines(e)].join('\n  ')}${e.evidence?.curl ? `\n  ${e.evidence.curl}` : ''}`).join('\n'))}</failure>`,
        );
      } else if (q.status === 'error') out.push(`      <error message="${x(`tool error: ${q.reason ?? ''}`)}"/>`);
      else if (q.status === 'failed')
        out.push(`      <system-out>${x(`warning (${q.level}): ${q.evidence.map((e) => e.message).join('\n')}`)}</system-out>`);
      else if (q.status !== 'passed') out.push(`      <skipped message="${x(`${q.status}: ${q.reason ?? ''}`)}"/>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
