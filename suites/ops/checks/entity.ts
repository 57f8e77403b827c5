import { ENTITY, SERVICE } from '../collections';
import { asDoc, isDoc } from '../../core/json';
import { Unmet } from '../../core/precondition';
import {
  absentFields,
  createIn,
  createNeeded,
  getIn,
  keys,
  lackingFields,
  listIn,
  ok,
  rows,
  schemaFindings,
  type Doc,
  type OpsCheck,
  type OpsContext,
} from '../support';

/**
 * A service and `n` entities linked to it both ways a server may link them: the entities name the service in
 * `services`, and the service's entity rules match an alias the entities carry (the document shows `services` only
 * in reads). `tag` tells the alias of one such service from another's, so that entities of two services are linked to
 * their own only. Unmet when they could not be made or are not seen linked either way; `entity` makes one more member.
 */
async function serviceWithEntities(ctx: OpsContext, n: number, extra: Doc = {}, tag = 'member') {
  const member = `${ctx.options.runTag}-${tag}`;
  const rules = [{ rule_condition: 'AND', rule_items: [{ field: 'cf_member', field_type: 'alias', rule_type: 'matches', value: member }] }];
  const svc = await createNeeded(ctx, SERVICE, `Retire Service ${tag}`, { entity_rules: rules });
  const service = svc.key;
  const memberOf = {
    services: [{ _key: service, title: svc.body.title }],
    identifier: { fields: ['cf_member'], values: [member] },
    cf_member: [member],
  };
  const entity = async (title: string, more: Doc = {}) => (await createNeeded(ctx, ENTITY, title, { ...memberOf, ...more })).key;
  const entities = [];
  for (let i = 0; i < n; i++) entities.push(await entity(`Retire Entity ${tag} ${i}`, extra));
  const linked = await linkedTo(ctx, service, entities);
  const unlinked = entities.filter((e) => !linked.includes(e));
  if (unlinked.length)
    throw new Unmet(
      `the entities ${unlinked.join(', ')} are not seen linked to the service ${service} (by services._key nor in their services)`,
    );
  return { service, entities, entity, memberOf };
}

type MemberOf = Awaited<ReturnType<typeof serviceWithEntities>>['memberOf'];

/** An entity that is a member of both services, or undefined where the server does not link it to both. */
async function memberOfBoth(ctx: OpsContext, x: MemberOf, y: MemberOf, services: string[]): Promise<string | undefined> {
  const aliases = [...x.cf_member, ...y.cf_member];
  const made = await createIn(ctx, ENTITY, 'Retire Entity of both', {
    services: [...x.services, ...y.services],
    identifier: { fields: ['cf_member'], values: aliases },
    cf_member: aliases,
  });
  if (!made.key) return undefined;
  const key = made.key;
  const linked = await membership(ctx, services, [key]);
  return services.every((s) => linked[s]?.includes(key)) ? key : undefined;
}

/** Entities linked to the service, by a filter on `services._key` or by the `services` of each candidate's read. */
async function linkedTo(ctx: OpsContext, service: string, candidates: string[]): Promise<string[]> {
  const listed = keys(rows(await listIn(ctx, ENTITY, { filter: JSON.stringify({ 'services._key': service }) })));
  const read = await Promise.all(candidates.map(async (k) => ({ k, services: asDoc((await getIn(ctx, ENTITY, k)).json ?? {}).services })));
  const named = read.filter((r) => Array.isArray(r.services) && r.services.some((s) => asDoc(s)._key === service)).map((r) => r.k);
  // Only the candidates: a service's other members (another check's) are not what is judged.
  return [...new Set([...listed, ...named])].filter((k) => candidates.includes(k)).sort();
}

/** Each service's members among `candidates`, as one value to compare: `{<service>: [entity keys]}`. */
async function membership(ctx: OpsContext, services: string[], candidates: string[]): Promise<Record<string, string[]>> {
  return Object.fromEntries(await Promise.all(services.map(async (s) => [s, await linkedTo(ctx, s, candidates)] as const)));
}

export const retireAndRestore: OpsCheck = {
  id: 'ops.entity.retire-restore',
  title:
    'entity/retire MUST retire every listed entity, and only those, un-linking each from its services; entity/restore MUST re-link each to its own',
  requirements: ['OPS-ENTITY-RETIRE', 'OPS-ENTITY-RESTORE', 'OPS-ENTITY-RETIRED-FORM', 'OPS-ENTITY-FIELDS'],
  async run(ctx) {
    // Two services, each with members of its own: a retire or restore of one entity of each, listed together, acts on
    // both ("the listed entities"), and each goes back to its own service, while the unlisted member stays linked.
    const one = await serviceWithEntities(ctx, 2, {}, 'member one');
    const two = await serviceWithEntities(ctx, 1, {}, 'member two');
    const [a, c] = one.entities;
    const [b] = two.entities;
    const services = [one.service, two.service];
    // "un-links them from their services": an entity of both services too, where the server links it to both.
    const d = await memberOfBoth(ctx, one.memberOf, two.memberOf, services);
    const listed = d ? [a, b, d] : [a, b];
    const all = [...listed, c];
    const retire = await ctx.http.send('entityRetire', { body: { data: listed } });
    const retired = Array.isArray(retire.json) ? retire.json.map(String) : [];
    ctx.expect.that(
      'OPS-ENTITY-RETIRE',
      `retire of ${listed.join(', ')}`,
      ok(retire) && listed.every((k) => retired.includes(k)) && !retired.includes(c),
      { expected: `a success naming ${listed.join(', ')}, not ${c}`, actual: `${retire.status} ${retire.text.slice(0, 160)}` },
      retire,
    );
    ctx.expect.equal(
      'OPS-ENTITY-RETIRE',
      `the members of services ${one.service} and ${two.service} after retiring ${listed.join(', ')} (${c} not listed)`,
      await membership(ctx, services, all),
      { [one.service]: [c], [two.service]: [] },
    );
    const read = await getIn(ctx, ENTITY, a);
    const entity = asDoc(read.json ?? {});
    const fields = Object.keys(entity).filter((k) => /retire/i.test(k));
    ctx.observe(
      'OPS-ENTITY-RETIRED-FORM',
      `a retired entity reads ${read.status} with services ${JSON.stringify(read.json?.services)} and ${fields.length ? fields.map((f) => `${f}=${JSON.stringify(entity[f])}`).join(', ') : 'no field naming retirement'}`,
    );

    const restore = await ctx.http.send('entityRestore', { body: { data: listed } });
    ctx.expect.that(
      'OPS-ENTITY-RESTORE',
      `restore of ${listed.join(', ')}`,
      ok(restore) && listed.every((k) => restore.text.includes(k)),
      { expected: `a success naming ${listed.join(', ')}`, actual: `${restore.status} ${restore.text.slice(0, 160)}` },
      restore,
    );
    ctx.expect.equal(
      'OPS-ENTITY-RESTORE',
      `the members of services ${one.service} and ${two.service} after restoring ${listed.join(', ')}`,
      await membership(ctx, services, all),
      { [one.service]: [a, c, ...(d ? [d] : [])].sort(), [two.service]: [b, ...(d ? [d] : [])].sort() },
    );

    // An entity that belonged to no service comes back with none (services entries are {_key, title} links).
    const loose = await createIn(ctx, ENTITY, 'Retire Loose Entity');
    if (!loose.key) return;
    await ctx.http.send('entityRetire', { body: { data: [loose.key] } });
    await ctx.http.send('entityRestore', { body: { data: [loose.key] } });
    const back = await getIn(ctx, ENTITY, loose.key);
    const looseServices: unknown[] = Array.isArray(back.json?.services) ? back.json.services : [];
    ctx.expect.equal('OPS-ENTITY-FIELDS', 'services of a restored entity that belonged to no service', looseServices, [], back);
  },
};

export const countRetirable: OpsCheck = {
  id: 'ops.entity.count-retirable',
  title:
    'entity/count_retirable MUST list the entities flagged retirable, with object_type, title, retirable, sec_grp, _key and permissions',
  requirements: ['OPS-ENTITY-COUNT-RETIRABLE', 'OPS-ENTITY-FIELDS'],
  async run(ctx) {
    const flagged = await createNeeded(ctx, ENTITY, 'Retirable Entity', { retirable: 1 });
    const plain = await createNeeded(ctx, ENTITY, 'Kept Entity');
    // Who sets the flag is not said: a server may take it from the client or compute it by a rule of its own. The
    // entities are judged by their flag as read, not as sent.
    const [isFlagged, isPlain] = await Promise.all([flagged.key, plain.key].map((k) => flaggedRetirable(ctx, k)));
    const ex = await ctx.http.send('entityCountRetirable');
    const list: Doc[] = Array.isArray(ex.json) ? ex.json : [];
    const listedKeys = list.map((e) => e._key);
    const judged = [
      { key: flagged.key, flag: isFlagged },
      { key: plain.key, flag: isPlain },
    ].filter((e) => e.flag !== undefined);
    if (!judged.some((e) => e.flag))
      ctx.untested(
        'OPS-ENTITY-COUNT-RETIRABLE',
        'neither entity reads as flagged retirable (the server sets the flag by a rule of its own)',
        ex,
      );
    for (const e of judged) {
      if (e.flag)
        ctx.expect.contains(
          'OPS-ENTITY-COUNT-RETIRABLE',
          'keys count_retirable lists, against an entity read as flagged retirable',
          listedKeys,
          e.key,
          ex,
        );
      else
        ctx.expect.absent(
          'OPS-ENTITY-COUNT-RETIRABLE',
          'keys count_retirable lists, against an entity read as not flagged',
          listedKeys,
          e.key,
          ex,
        );
    }
    const mine = list.find((e) => judged.some((j) => j.flag && j.key === e._key));
    if (mine) {
      ctx.expect.equal(
        'OPS-ENTITY-COUNT-RETIRABLE',
        'documented fields the summary of the retirable entity lacks',
        lackingFields(mine, ['object_type', 'title', 'retirable', 'sec_grp', '_key', 'permissions']),
        [],
        ex,
      );
      ctx.expect.equal('OPS-ENTITY-COUNT-RETIRABLE', 'object_type of the summary of the retirable entity', mine.object_type, 'entity', ex);
      if (mine.permissions !== undefined)
        ctx.expect.equal(
          'OPS-ENTITY-FIELDS',
          'the permissions of the summary, against the listed form',
          permissionsProblems(mine.permissions),
          [],
          ex,
        );
    }
    const read = await getIn(ctx, ENTITY, plain.key);
    const entity = asDoc(read.json ?? {});
    ctx.expect.equal(
      'OPS-ENTITY-FIELDS',
      'fields listed for entities that a new entity lacks',
      lackingFields(entity, NEW_ENTITY_FIELDS),
      [],
      read,
    );
  },
};

/** Of the fields seen on entities, those every entity has from its creation on (the rest come with links or flags). */
const NEW_ENTITY_FIELDS = [
  'title',
  'identifying_name',
  'create_time',
  'create_by',
  'create_source',
  'mod_time',
  'mod_by',
  'mod_source',
  'mod_timestamp',
  '_user',
  '_type',
];

const FLAGS = ['read', 'write', 'delete'];
/**
 * Where `permissions` departs from `{user, group: {read, write, delete}, read, write, delete}` with boolean flags: the
 * Permissions schema's findings, and the members it types but leaves optional that are absent.
 */
function permissionsProblems(p: unknown): string[] {
  const absent = [
    ...absentFields(p, ['user', 'group', ...FLAGS], 'permissions'),
    ...(isDoc(p) ? absentFields(p.group, FLAGS, 'permissions.group') : []),
  ];
  return [...schemaFindings('Permissions', p).map((f) => f.message), ...absent.map((f) => `${f} is absent`)];
}

const isFlag = (v: unknown) => v === 1 || v === '1' || v === true;
/** The entity's flag as read now ("retirable: integer 1 when flagged for retirement"); undefined when it cannot be read. */
async function flaggedRetirable(ctx: OpsContext, key: string): Promise<boolean | undefined> {
  const got = await getIn(ctx, ENTITY, key);
  return ok(got) ? isFlag(asDoc(got.json).retirable) : undefined;
}

export const retireRetirable: OpsCheck = {
  id: 'ops.entity.retire-retirable',
  title: 'entity/retire_retirable MUST retire exactly the entities flagged retirable',
  requirements: ['OPS-ENTITY-RETIRE-RETIRABLE'],
  // Retires every retirable entity, other checks' too: it runs last, alone.
  destructive: true,
  async run(ctx) {
    const made = await serviceWithEntities(ctx, 2, { retirable: 1 });
    const kept = await made.entity('Not Retirable');
    // Judged by the flags as read just before (a server may compute them by a rule of its own), not as sent.
    const mine = [...made.entities, kept];
    const flags = new Map(await Promise.all(mine.map(async (k) => [k, await flaggedRetirable(ctx, k)] as const)));
    const flaggedMine = mine.filter((k) => flags.get(k) === true);
    const plainMine = mine.filter((k) => flags.get(k) === false);
    if (!flaggedMine.length)
      return ctx.untested(
        'OPS-ENTITY-RETIRE-RETIRABLE',
        "none of the run's entities reads as flagged retirable (the server sets the flag by a rule of its own)",
      );
    const flaggedBefore = new Set((await ctx.http.send('entityCountRetirable')).json?.map((e) => String(e._key)) ?? []);
    // Every entity's flag as it stood before: a server may clear the flag of the entities it retires.
    const flagsBefore = new Map(
      rows(await listIn(ctx, ENTITY, { fields: '_key,retirable' })).map((e) => [String(e._key), isFlag(e.retirable)]),
    );
    const ex = await ctx.http.send('entityRetireRetirable');
    const retired = Array.isArray(ex.json) ? ex.json.map(String) : [];
    ctx.expect.equal(
      'OPS-ENTITY-RETIRE-RETIRABLE',
      "retire_retirable: success, and the run's entities read as flagged that it leaves out",
      { success: ok(ex), missing: flaggedMine.filter((k) => !retired.includes(k)) },
      { success: true, missing: [] },
      ex,
    );
    for (const k of plainMine)
      ctx.expect.absent(
        'OPS-ENTITY-RETIRE-RETIRABLE',
        'keys retire_retirable retired, against an entity read as not flagged',
        retired,
        k,
        ex,
      );
    // An entity retired before and still flagged may be named too ("retires all entities flagged retirable"; which
    // keys the answer lists is not said): a key count_retirable did not list must at least have been flagged.
    const unlisted = retired.filter((k) => !flaggedBefore.has(k) && flagsBefore.get(k) !== true);
    const unflagged = await Promise.all(
      unlisted.map(async (k) => ({
        k,
        flagged: flagsBefore.has(k) ? flagsBefore.get(k) : isFlag(asDoc((await getIn(ctx, ENTITY, k)).json ?? {}).retirable),
      })),
    );
    ctx.expect.equal(
      'OPS-ENTITY-RETIRE-RETIRABLE',
      'retired keys count_retirable did not list, of entities not flagged retirable before',
      unflagged.filter((f) => !f.flagged).map((f) => f.k),
      [],
      ex,
    );
    // Retired entities are un-linked from their services (as entity/retire does): what stays linked is the unflagged.
    const linked = await linkedTo(ctx, made.service, mine);
    ctx.expect.equal(
      'OPS-ENTITY-RETIRE-RETIRABLE',
      "the service's entities after retire_retirable",
      [...linked].sort(),
      [...plainMine].sort(),
    );
  },
};
