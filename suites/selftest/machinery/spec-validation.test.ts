import { describe, expect, it } from 'vitest';
import { specOf } from '../../core/spec';
import { OPS_SPEC } from '../../ops/paths';
import { STACKS_SPEC } from '../../stacks/paths';

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

/** What the stack document says of its interface description, held against the suite's own spec (no server can show it). */
describe('fixed points of the stack spec', () => {
  const spec = specOf(STACKS_SPEC);
  it('carries the version label v1.0', () => expect(spec.doc.info.version).toBe('v1.0'));
  it('validates error codes as any string, so unknown codes are tolerated', () => {
    const code = spec.doc.components.schemas.ServiceError.properties.code;
    expect([code.type, code.enum, code.const]).toEqual(['string', undefined, undefined]);
    expect(spec.componentSchema('ServiceError').validate({ code: 'SomethingNew', message: 'x' }).findings).toEqual([]);
  });
});
