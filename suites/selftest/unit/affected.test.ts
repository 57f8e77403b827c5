import { describe, expect, it } from 'vitest';
import { affected } from '../changes/affected';
import { chooser } from '../changes/selection';

// The quick edit loop's graph: a changed file → the requirements it reaches → the self-tests whose expectation names
// them. What the graph cannot place runs everything, never nothing.
describe('what a change reaches', () => {
  it('a check file reaches the requirements it names and the correct runs of its API only', () => {
    const sel = affected([{ file: 'suites/ops/checks/icons.ts' }]);
    expect(sel.full).toBe(false);
    expect(sel.correct).toEqual(['ops']);
    expect(sel.requirements).toContain('OPS-ICON-LIST');
    expect(sel.requirements.every((id) => id.startsWith('OPS-'))).toBe(true);
    const pick = chooser(sel);
    expect(pick.fault('ops', { id: 'x', breaks: ['OPS-ICON-LIST'] })).toBe(true);
    expect(pick.fault('ops', { id: 'x', breaks: ['OPS-AUTH-HTTPS'] })).toBe(false);
    expect(pick.correct('stacks')).toBe(false);
    expect(pick.bug('stacks', 'stacks-lenient', [])).toBe(false);
    expect(pick.bug('ops', 'ops-strict-https', [])).toBe(true);
  });

  it('a catalogue change reaches the entries its changed lines fall in', () => {
    const text = ['requirements:', '  - id: A-ONE', '    level: MUST', '  - id: A-TWO', '    level: MUST', ''].join('\n');
    const sel = affected([{ file: 'specs/requirements/stacks.yaml', lines: [[5, 5]] }], () => text);
    expect(sel.requirements).toEqual(['A-TWO']);
    expect(sel.correct).toEqual(['stacks']);
  });

  it('a corpus server, a fault file and a document each reach their own runs', () => {
    const sel = affected(
      [{ file: 'corpus/servers/ops-strict-https/server.ts' }, { file: 'suites/selftest/stacks/faults.ts' }, { file: 'README.md' }],
      (f) => (f.endsWith('faults.ts') ? "export const f = [{ id: 'deleted-stack-stays-listed' }];" : ''),
    );
    expect(sel).toMatchObject({ full: false, correct: [], servers: ['ops-strict-https'] });
    expect(sel.faults).toContain('deleted-stack-stays-listed');
  });

  it('the engine, or a file it cannot place, runs everything', () => {
    expect(affected([{ file: 'suites/core/runner.ts' }]).full).toBe(true);
    expect(affected([{ file: 'package.json' }]).full).toBe(true);
    expect(affected([{ file: 'suites/ops/gone.ts' }], () => undefined).full).toBe(true);
    expect(chooser(affected([{ file: 'vitest.config.ts' }])).fault('ops', { id: 'x', breaks: [] })).toBe(true);
  });
});
