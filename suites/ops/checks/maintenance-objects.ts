import { compact } from '../../core/expect';
import { asDoc } from '../../core/json';
import { MAINTENANCE, SERVICE } from '../collections';
import { createIn, getIn, ok, type Doc, type OpsCheck } from '../support';

const KINDS = ['service', 'entity'];
/** The Global team's key, which the document names: a team every deployment holds. */
const GLOBAL_TEAM = 'default_ops_security_group';

/** Entries of a window's objects that are not `{object_type: 'service' or 'entity', _key: string}`. */
const strayEntries = (objects: unknown): unknown[] =>
  Array.isArray(objects) ? objects.filter((o) => !(o && typeof o === 'object' && KINDS.includes(String((o as Doc).object_type)) && typeof (o as Doc)._key === 'string')) : [objects];

export const windowObjectKinds: OpsCheck = {
  id: 'ops.maintenance.object-kinds',
  title:
    "A maintenance window's objects MUST be {object_type: 'service' or 'entity', _key}: a window written naming a team, or a service by a key that is not a string, MUST be refused or read back with only such entries",
  requirements: ['OPS-MW-OBJECTS'],
  shares: ['maintenance'],
  async run(ctx) {
    const svc = await createIn(ctx, SERVICE, 'mw kinds service');
    if (!svc.key) return ctx.untested('OPS-MW-OBJECTS', 'could not create a service for the windows to name', svc.ex);
    const service = { object_type: 'service', _key: svc.key };
    const cases: [string, Doc[]][] = [
      ['a service and the Global team', [service, { object_type: 'team', _key: GLOBAL_TEAM }]],
      ['a service by a numeric key', [{ object_type: 'service', _key: 12345 }]],
    ];
    for (const [what, sent] of cases) {
      const made = await createIn(ctx, MAINTENANCE, `mw kinds ${what}`, { objects: sent });
      if (!ok(made.ex) || !made.key) {
        ctx.expect.that(
          'OPS-MW-OBJECTS',
          `a window written with objects naming ${what}`,
          true,
          { expected: 'a refusal, or a window whose objects are service or entity entries with string keys', actual: `refused: ${made.ex.status}` },
          made.ex,
        );
        continue;
      }
      const got = await getIn(ctx, MAINTENANCE, made.key);
      if (!ok(got)) {
        ctx.untested('OPS-MW-OBJECTS', `a window written with objects naming ${what} was accepted, and its read answered ${got.status}`, got);
        continue;
      }
      const objects = asDoc(got.json).objects;
      ctx.expect.that(
        'OPS-MW-OBJECTS',
        `a window written with objects naming ${what}, read back`,
        strayEntries(objects).length === 0,
        { expected: 'a refusal, or a window whose objects are service or entity entries with string keys', actual: `accepted; objects ${compact(objects)}` },
        got,
      );
    }
  },
};
