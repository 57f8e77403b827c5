import { describe, expect, it } from 'vitest';
import { specOf } from '../../core/runner';
import { OPS_SPEC } from '../../ops/paths';

/** A deviation inside one branch of a composition counts at that branch's own requirement, never at the whole answer's. */
describe('schema findings inside anyOf/oneOf', () => {
  const icons = specOf(OPS_SPEC).responseSchema('iconList', 200)!;
  const icon = { _key: 'a', title: 't', svg_path: 'M0 0', default_width: 40, default_height: '40', category: 'c' };

  it('accepts numbers and numeric strings for the icon sizes (the document shows both)', () => {
    expect(icons.validate({ total: 1, result: [icon] }).findings).toEqual([]);
  });

  it('attributes a field of an icon to the icon fields (SHOULD), not to the list (MUST)', () => {
    const findings = icons.validate({ total: 1, result: [{ ...icon, title: 7 }] }).findings;
    expect(findings.map((f) => [f.requirement, f.at])).toEqual([['OPS-ICON-FIELDS', '/result/0/title']]);
  });

  it('attributes a wrong total to the list shape the answer has', () => {
    expect(icons.validate({ total: 'one', result: [] }).findings.map((f) => f.requirement)).toEqual(['OPS-ICON-LIST']);
  });

  it('attributes a category entry to the category branch when the answer is an array', () => {
    expect(icons.validate([{ name: 3 }]).findings.map((f) => f.requirement)).toEqual(['OPS-ICON-CATEGORY']);
  });

  it('still fails the whole answer when it matches no branch at its own level', () => {
    expect(icons.validate('icons').findings.map((f) => f.requirement)).toEqual(['OPS-ICON-LIST']);
  });
});
