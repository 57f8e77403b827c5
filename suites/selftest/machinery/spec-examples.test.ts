import { describe, expect, it } from 'vitest';
import { APIS } from '../../apis';
import { specOf } from '../../core/spec';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every example a spec gives for an answer, with the operation and status it belongs to. */
function examples(doc: any): [string, number, string, unknown][] {
  const out: [string, number, string, unknown][] = [];
  const resolve = (n: any) =>
    n?.$ref
      ? n.$ref
          .slice(2)
          .split('/')
          .reduce((at: any, p: string) => at?.[p.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
      : n;
  for (const item of Object.values<any>(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      for (const [status, raw] of Object.entries<any>(op.responses ?? {})) {
        if (!/^\d{3}$/.test(status)) continue;
        const media = resolve(raw)?.content?.['application/json'];
        if (!media) continue;
        if (media.example !== undefined) out.push([op.operationId, Number(status), 'example', media.example]);
        for (const [name, ex] of Object.entries<any>(media.examples ?? {}))
          out.push([op.operationId, Number(status), name, resolve(ex).value]);
      }
    }
  }
  return out;
}

describe.each(APIS.map((a) => [a.id, a] as const))('examples of the %s spec', (_, api) => {
  const spec = specOf(api.specFile);
  const all = examples(spec.doc);
  it('gives an example for every answer that has a body', () => {
    expect(all.length).toBeGreaterThan(api.id === 'ops' ? 40 : 10);
  });
  it.each(all.map(([op, status, name, value]) => [`${op} ${status} ${name}`, op, status, value] as const))(
    '%s validates against its own schema',
    (_, op, status, value) => {
      const schema = spec.responseSchema(op, status);
      expect(schema, `${op} ${status} has no schema`).toBeDefined();
      expect(schema!.validate(value).findings.map((f) => `${f.requirement} ${f.message}`)).toEqual([]);
    },
  );
});
