import fc from 'fast-check';
import { orderings } from '../collation';
import { checkProperty, Violation } from '../../core/property';
import type { Exchange } from '../../core/types';
import { word } from '../arbitraries/values';
import { KPI_BASE_SEARCH, SERVICE, TEAM, type Collection } from '../collections';
import {
  absentFields,
  allNeeded,
  countOf,
  createIn,
  deleteIn,
  keyOf,
  lackingFields,
  ok,
  ownFilter,
  same,
  schemaFindings,
  tagged,
  type Doc,
  type OpsCheck,
  type OpsContext,
} from '../support';
import { compact } from '../../core/expect';
import { asDoc, holdsDoc, isDoc } from '../../core/json';
import { Unmet } from '../../core/precondition';

const STATUSES = ['Draft', 'Queued', 'Generating', 'Generated', 'Failed', 'Incomplete'];
const KINDS = ['dashboards', 'lookups', 'macros', 'props', 'savedsearches', 'transforms'];
const EXTRA = ['icon', 'ops_objects_counts', 'platform_objects_counts'];

const docs = (v: unknown): Doc[] => (Array.isArray(v) ? v.filter(isDoc) : []);
const str = (v: unknown): v is string => typeof v === 'string';
const shown = (ex: Exchange) => `${ex.status} ${ex.text.slice(0, 160)}`;
const sameSet = (a: unknown[], b: unknown[]) => JSON.stringify(a.map(String).sort()) === JSON.stringify(b.map(String).sort());
const pick = (d: Doc, fields: string[]) => Object.fromEntries(fields.map((f) => [f, d[f]]));
const FIELDS = ['title', 'description', 'overview', 'cp_version'];

const id = (key: string) => ({ content_pack_id: key });
const list = (ctx: OpsContext, query: Record<string, string | number | readonly string[] | undefined> = {}) =>
  ctx.http.send('cpAuthList', { query });
const read = (ctx: OpsContext, key: string) => ctx.http.send('cpAuthGet', { params: id(key) });
const keysOf = (ex: Exchange) => docs(ex.json).map((d) => String(d._key));

function packBody(ctx: OpsContext, name: string, extra: Doc = {}): Doc {
  return {
    title: tagged(ctx, name),
    description: `conformance pack ${name}`,
    overview: 'written by the conformance suite',
    cp_version: '1.0.0',
    metadata: { icon: null, main_screenshot: {}, screenshots: [] },
    ops_objects: {},
    // Every platform_objects with the six arrays the document lists, user_selected_objects' too: a server may demand them.
    platform_objects: Object.fromEntries(KINDS.map((k) => [k, []])),
    user_selected_objects: { ops_objects: {}, platform_objects: Object.fromEntries(KINDS.map((k) => [k, []])) },
    ...extra,
  };
}

interface Made {
  ex: Exchange;
  key?: string;
  body: Doc;
}

/** The ledger's name for a content pack. */
const packEntry = (key: string) => `content_pack ${key}`;

/** A pack of the run's own, on the ledger; `key` is undefined when the create was refused. */
export async function createPack(ctx: OpsContext, name: string, extra: Doc = {}): Promise<Made> {
  const body = packBody(ctx, name, extra);
  const ex = await ctx.http.send('cpAuthCreate', { body });
  const key = ok(ex) ? keyOf(ex) : undefined;
  if (key) ctx.ledger.add(packEntry(key), () => ctx.http.send('cpAuthDelete', { params: id(key) }));
  return { ex, key, body };
}

/** Packs the check cannot go on without, one after the other: all of them with their keys, or Unmet at the first refused. */
async function createPacks(ctx: OpsContext, bodies: [string, Doc][]): Promise<(Made & { key: string })[]> {
  const made: (Made & { key: string })[] = [];
  for (const [name, extra] of bodies) {
    const m = await createPack(ctx, name, extra);
    if (!m.key) throw new Unmet(`could not create content pack ${made.length + 1} of ${bodies.length}, "${name}" (${shown(m.ex)})`, m.ex);
    made.push({ ...m, key: m.key });
  }
  return made;
}

/** Identifier → title pairs of a single-read `ops_objects` member: `{id: title}` entries in an array, or one such map. */
function singleReadPairs(v: unknown): [string, unknown][] | undefined {
  if (Array.isArray(v))
    return v.every((e) => isDoc(e) && Object.keys(e).length === 1) ? v.flatMap((e) => Object.entries(e as Doc)) : undefined;
  return isDoc(v) ? Object.entries(v) : undefined;
}
/** Identifiers of an `ops_objects` member in either form. */
const idsIn = (v: unknown): string[] => (Array.isArray(v) && v.every(str) ? v : (singleReadPairs(v) ?? []).map(([k]) => k));

/** `n` services of the run's for a pack to name, as `{_key, title}`; Unmet when one is refused. */
async function ownServices(ctx: OpsContext, n: number): Promise<Doc[]> {
  const made = allNeeded(
    await Promise.all(Array.from({ length: n }, (_, i) => createIn(ctx, SERVICE, `cpa service ${i}`))),
    `${n} service(s) for the pack to name`,
  );
  return made.map((m) => ({ _key: m.key, title: m.body.title }));
}

/** The full update of the crud pack and the pack read after it, `d` being the pack as read before; returns the body sent. */
async function updateCrudPack(ctx: OpsContext, key: string, d: Doc): Promise<Doc> {
  const next = packBody(ctx, 'crud renamed', {
    description: 'changed',
    overview: 'changed overview',
    cp_version: '1.1.0',
    platform_objects: { ...Object.fromEntries(KINDS.map((k) => [k, []])), macros: [`${ctx.options.runTag}_macro`] },
  });
  const upd = await ctx.http.send('cpAuthUpdate', { params: id(key), body: next });
  ctx.expect.equal(
    'OPS-CPA-UPDATE',
    'update of the pack: success and {_key}',
    { success: ok(upd), _key: keyOf(upd) },
    { success: true, _key: key },
    upd,
  );
  const again = await read(ctx, key);
  const a = asDoc(again.json);
  const stale = FIELDS.filter((f) => a[f] !== next[f]);
  const macros = isDoc(a.platform_objects) ? a.platform_objects.macros : undefined;
  ctx.expect.that(
    'OPS-CPA-UPDATE',
    'the pack read after the update',
    stale.length === 0 && Array.isArray(macros) && sameSet(macros, [`${ctx.options.runTag}_macro`]),
    {
      expected: compact({ ...pick(next, FIELDS), 'platform_objects.macros': [`${ctx.options.runTag}_macro`] }),
      actual: compact({ ...pick(a, FIELDS), 'platform_objects.macros': macros }),
    },
    again,
  );
  // A full update that sends no status may leave the pack without one (transitions are not shown); one it holds is one of the six.
  if (a.status !== undefined) ctx.expect.oneOf('OPS-CPA-STATUS', 'status of the pack after an update', String(a.status), STATUSES, again);
  if (a.status !== d.status)
    ctx.observe(
      'OPS-CPA-TRANSITIONS',
      `an update that sent no status moved the pack from ${JSON.stringify(d.status)} to ${JSON.stringify(a.status)}`,
    );
  return next;
}

/** The delete of the crud pack (`next`: the body it was last updated with): its answer, and the pack gone from the read and the list. */
async function deleteCrudPack(ctx: OpsContext, key: string, next: Doc): Promise<void> {
  const del = await ctx.http.send('cpAuthDelete', { params: id(key) });
  ctx.expect.status('OPS-CPA-DELETE', 'delete of the pack', del, '2xx');
  // The details may be the answer itself or wrapped in it ({deleted: true, content_pack: {...}}): the shape is not shown.
  if (ok(del))
    ctx.expect.that(
      'OPS-CPA-DELETE-DETAILS',
      'the details the delete answers',
      holdsDoc(del.json, (d) => d._key === key || d.title === next.title),
      { expected: `the pack's _key ${key} or its title ${compact(next.title)}`, actual: compact(del.json) },
      del,
    );
  if (ok(del)) ctx.ledger.forget(packEntry(key));
  const gone = await read(ctx, key);
  ctx.expect.status('OPS-CPA-DELETE', 'GET of the deleted pack', gone, 'not 2xx');
  ctx.expect.absent(
    'OPS-CPA-DELETE',
    "keys the list of the run's packs shows after the delete",
    keysOf(await list(ctx, { filter: ownFilter(ctx) })),
    key,
  );
}

/** Packs naming objects no store holds (deleted since, or of a type that holds none) still read and delete. */
async function orphanedPacks(ctx: OpsContext): Promise<void> {
  // A pack outlives the objects it names: one naming a service deleted since still reads and deletes.
  const { key: orphan } = await createIn(ctx, SERVICE, 'cpa service 0');
  const naming = orphan ? await createPack(ctx, 'crud orphan', { ops_objects: { service: [orphan] } }) : undefined;
  if (!orphan || !naming?.key) return;
  await deleteIn(ctx, SERVICE, orphan);
  const orphanRead = await read(ctx, naming.key);
  ctx.expect.status('OPS-CPA-GET', 'GET of a pack naming a service deleted since', orphanRead, '2xx');
  const named = asDoc(orphanRead.json).ops_objects;
  ctx.expect.contains(
    'OPS-CPA-FIELDS',
    'identifiers of the single read of a pack naming a service deleted since',
    idsIn(isDoc(named) ? named.service : undefined),
    orphan,
    orphanRead,
  );
  const dropped = await ctx.http.send('cpAuthDelete', { params: id(naming.key) });
  if (ctx.expect.status('OPS-CPA-DELETE', 'DELETE of a pack naming a service deleted since', dropped, '2xx'))
    ctx.ledger.forget(packEntry(naming.key));
  // Likewise a pack naming an object of a listed type that holds none (such a pack may be refused).
  const unused = await createPack(ctx, 'crud unused type', { ops_objects: { entity_filter_rule: [`${ctx.options.runTag}-rule`] } });
  if (!unused.key) return;
  ctx.expect.status('OPS-CPA-GET', 'GET of a pack naming an entity_filter_rule no store holds', await read(ctx, unused.key), '2xx');
  const unusedGone = await ctx.http.send('cpAuthDelete', { params: id(unused.key) });
  if (ctx.expect.status('OPS-CPA-DELETE', 'DELETE of a pack naming an entity_filter_rule no store holds', unusedGone, '2xx'))
    ctx.ledger.forget(packEntry(unused.key));
}

const crud: OpsCheck = {
  id: 'ops.authoring.crud',
  title:
    'A custom content pack MUST be created with {_key}, read back by key as object_type content_pack in one of the six statuses, updated in full with {_key}, and deleted (the answer SHOULD give its details)',
  requirements: [
    'OPS-CPA-CREATE',
    'OPS-CPA-GET',
    'OPS-CPA-UPDATE',
    'OPS-CPA-DELETE',
    'OPS-CPA-DELETE-DETAILS',
    'OPS-CPA-OBJECT-TYPE',
    'OPS-CPA-STATUS',
    'OPS-CPA-TRANSITIONS',
    'OPS-CPA-FIELDS',
  ],
  uses: ['authoring'],
  async run(ctx) {
    const made = await createPack(ctx, 'crud');
    if (
      !ctx.expect.that(
        'OPS-CPA-CREATE',
        'create of a pack',
        !!made.key,
        { expected: 'a success with {_key}', actual: shown(made.ex) },
        made.ex,
      )
    )
      return;
    const key = made.key!;
    const got = await read(ctx, key);
    const d = asDoc(got.json);
    ctx.expect.equal(
      'OPS-CPA-GET',
      'GET of the new pack: success, _key and the fields as sent',
      { success: ok(got), _key: d._key, ...pick(d, FIELDS) },
      { success: true, _key: key, ...pick(made.body, FIELDS) },
      got,
    );
    ctx.expect.equal('OPS-CPA-OBJECT-TYPE', 'object_type of the pack', d.object_type, 'content_pack', got);
    // The status a pack starts in is not shown (nor that it has one before a move): one it holds is one of the six.
    if (d.status !== undefined) ctx.expect.oneOf('OPS-CPA-STATUS', 'status of a new pack', String(d.status), STATUSES, got);
    ctx.observe('OPS-CPA-TRANSITIONS', `a pack created without status starts in ${JSON.stringify(d.status)}`);
    const missing = await read(ctx, `${key}${ctx.options.runTag}`);
    ctx.expect.status('OPS-CPA-GET', 'GET of a key no pack has', missing, 'not 2xx');

    const next = await updateCrudPack(ctx, key, d);
    await deleteCrudPack(ctx, key, next);
    await orphanedPacks(ctx);
  },
};

/** Fields a single read of a pack carries, as the document lists them: the CustomContentPack schema types them all but requires none. */
const READ_FIELDS = [
  'title',
  'description',
  'overview',
  'cp_version',
  'metadata',
  'platform_objects',
  'user_selected_objects',
  'mod_time',
  'mod_timestamp',
  'mod_source',
  '_version',
  'identifying_name',
  '_user',
  '_key',
];

/** The CustomContentPack schema's findings of `requirement` in `d` (ops_objects is judged in both its forms by the check). */
const findingsOf = (d: Doc, requirement: string) =>
  schemaFindings('CustomContentPack', d)
    .filter((f) => f.requirement === requirement && !f.at.startsWith('/ops_objects'))
    .map((f) => f.message);

/**
 * The types the pack's own table gives its fields, as the CustomContentPack schema holds them, and what the schema
 * leaves open, the identifier arrays of user_selected_objects: the table is the pack's, not fields seen.
 */
function fieldTypeProblems(d: Doc): string[] {
  const u = asDoc(d.user_selected_objects);
  const idArrays = (v: unknown) => isDoc(v) && Object.values(v).every((a) => Array.isArray(a) && a.every(str));
  const open = ['ops_objects', 'platform_objects']
    .filter((k) => !idArrays(u[k]))
    .map((k) => `user_selected_objects.${k} is not a map of identifier arrays: ${compact(u[k])}`);
  return [...findingsOf(d, 'OPS-CPA-FIELD-TYPES'), ...(isDoc(d.user_selected_objects) ? open : [])];
}

/** The listed fields a single read lacks, and the types of the common fields ("Objects commonly carry these fields"). */
function fieldProblems(d: Doc): string[] {
  const absent = [
    ...absentFields(d, READ_FIELDS, 'pack'),
    ...absentFields(d.metadata, ['icon', 'main_screenshot', 'screenshots'], 'pack.metadata'),
    ...absentFields(d.platform_objects, KINDS, 'pack.platform_objects'),
  ];
  return [...findingsOf(d, 'OPS-CPA-FIELDS'), ...absent.map((f) => `${f} is absent`)];
}

/**
 * Objects of the run's own of more than one type for a pack to name, by type, as `{_key, title}`: two services and a
 * team (Unmet when one is refused), and a KPI base search where the server makes one.
 */
async function ownObjects(ctx: OpsContext): Promise<Record<string, Doc[]>> {
  const wanted: [Collection, string][] = [
    [SERVICE, 'cpa service 0'],
    [SERVICE, 'cpa service 1'],
    [TEAM, 'cpa team 0'],
  ];
  const [made, search] = await Promise.all([
    Promise.all(wanted.map(([c, t]) => createIn(ctx, c, t))),
    createIn(ctx, KPI_BASE_SEARCH, 'cpa base search 0'),
  ]);
  const byType: Record<string, Doc[]> = {};
  for (const [i, m] of allNeeded(made, 'two services and a team for the pack to name').entries())
    (byType[wanted[i][0].type] ??= []).push({ _key: m.key, title: m.body.title });
  if (search.key) byType[KPI_BASE_SEARCH.type] = [{ _key: search.key, title: search.body.title }];
  return byType;
}

/**
 * What a single read's `ops_objects` gets wrong against the objects the pack names: every type named maps to
 * `{id: title}` entries, one per identifier, each the title of that object.
 */
function singleReadProblems(ops: unknown, named: Record<string, Doc[]>): string[] {
  if (!isDoc(ops)) return [`ops_objects is ${compact(ops)}, not an object`];
  return Object.entries(named).flatMap(([type, objects]) => {
    const pairs = singleReadPairs(ops[type]);
    if (!pairs) return [`ops_objects.${type} is ${compact(ops[type])}, not {id: title} entries`];
    const ids = objects.map((o) => String(o._key));
    const wrong = pairs.filter(([k, t]) => t !== objects.find((o) => o._key === k)?.title);
    return [
      ...(sameSet(
        pairs.map(([k]) => k),
        ids,
      ) && pairs.length === ids.length
        ? []
        : [`ops_objects.${type} names ${compact(pairs.map(([k]) => k))}, not ${compact(ids)}`]),
      ...wrong.map(([k, t]) => `ops_objects.${type} gives ${k} the title ${compact(t)}`),
    ];
  });
}

/** What a list row's `ops_objects` gets wrong: every type named maps to the array of its identifiers. */
function listFormProblems(ops: unknown, named: Record<string, Doc[]>): string[] {
  if (!isDoc(ops)) return [`ops_objects is ${compact(ops)}, not an object`];
  return Object.entries(named).flatMap(([type, objects]) => {
    const v = ops[type];
    const ids = objects.map((o) => String(o._key));
    return Array.isArray(v) && v.every(str) && v.length === ids.length && sameSet(v, ids)
      ? []
      : [`ops_objects.${type} is ${compact(v)}, not the identifiers ${compact(ids)}`];
  });
}

const forms: OpsCheck = {
  id: 'ops.authoring.fields',
  title:
    'A custom content pack MUST give ops_objects as identifier arrays in the list and as {id: title} entries in a single read, for every type it names; it SHOULD carry the other documented fields',
  requirements: ['OPS-CPA-FIELDS', 'OPS-CPA-FIELD-TYPES', 'OPS-CPA-OPS-OBJECTS'],
  uses: ['authoring'],
  async run(ctx) {
    const named = await ownObjects(ctx);
    const ops = Object.fromEntries(Object.entries(named).map(([t, os]) => [t, os.map((o) => String(o._key))]));
    const ids = ops.service;
    const macro = `${ctx.options.runTag}_macro`;
    const made = await createPack(ctx, 'fields', {
      ops_objects: ops,
      platform_objects: { ...Object.fromEntries(KINDS.map((k) => [k, []])), macros: [macro] },
      user_selected_objects: { ops_objects: { service: [ids[0]] }, platform_objects: { macros: [macro] } },
    });
    if (!made.key) throw new Unmet(`could not create the pack to read (${shown(made.ex)})`, made.ex);
    const got = await read(ctx, made.key);
    const d = asDoc(got.json);
    ctx.expect.equal('OPS-CPA-FIELD-TYPES', 'fields of the single read of other types than the table gives', fieldTypeProblems(d), [], got);
    ctx.expect.equal('OPS-CPA-FIELDS', 'documented fields the single read lacks, and mistyped common fields', fieldProblems(d), [], got);
    if (!ok(got)) ctx.untested('OPS-CPA-OPS-OBJECTS', `the single read of the pack answered ${shown(got)}`, got);
    else
      ctx.expect.equal(
        'OPS-CPA-OPS-OBJECTS',
        `ops_objects of a single read, against the objects of types ${Object.keys(named).join(', ')} the pack names`,
        singleReadProblems(d.ops_objects, named),
        [],
        got,
      );
    const listed = await list(ctx, { filter: ownFilter(ctx) });
    const row = docs(listed.json).find((r) => r._key === made.key);
    if (row)
      ctx.expect.equal(
        'OPS-CPA-OPS-OBJECTS',
        `ops_objects of the list row, against the objects of types ${Object.keys(named).join(', ')} the pack names`,
        listFormProblems(row.ops_objects, named),
        [],
        listed,
      );
    else ctx.untested('OPS-CPA-OPS-OBJECTS', `the list of the run's packs does not show ${made.key} (${listed.status})`, listed);
  },
};

/** The pack's own documented fields: with `fields`, those not asked for must be left out; other fields a server adds are its own. */
const LISTED = [
  'title',
  'description',
  'overview',
  'cp_version',
  'status',
  'metadata',
  'ops_objects',
  'platform_objects',
  'user_selected_objects',
];

/** The forms an array parameter takes on a URL: comma-separated, the parameter repeated, a JSON array. */
const ARRAY_FORMS: ((fields: string[]) => string | string[])[] = [(f) => f.join(','), (f) => f, (f) => JSON.stringify(f)];

/**
 * "`fields` (array)": how an array travels on a URL is not shown. The first form under which a list asked for two
 * fields returns them as the full list has them is the one the server reads; the comma form when none is.
 */
async function arrayForm(ctx: OpsContext, byKey: Map<string, Doc>): Promise<(fields: string[]) => string | string[]> {
  const probe = ['title', 'description'];
  for (const form of ARRAY_FORMS) {
    const got = docs((await list(ctx, { filter: ownFilter(ctx), fields: form(probe) })).json);
    if (got.length && got.every((r) => probe.every((f) => same(r[f], byKey.get(String(r._key))?.[f])))) return form;
  }
  return ARRAY_FORMS[0]!;
}

const extraFields: OpsCheck = {
  id: 'ops.authoring.list-fields',
  title:
    'With a fields parameter the authoring list MUST NOT return icon, ops_objects_counts or platform_objects_counts and MUST return the asked fields; without it the rows SHOULD carry those three',
  requirements: ['OPS-CPA-LIST-EXTRA-FIELDS', 'OPS-CPA-LIST-EXTRA-FIELDS-DEFAULT', 'OPS-CPA-LIST'],
  uses: ['authoring'],
  async run(ctx) {
    const { key: service } = await createIn(ctx, SERVICE, 'cpa service 0');
    const made = await createPacks(ctx, [
      [
        'extra a',
        {
          ops_objects: service ? { service: [service] } : {},
          platform_objects: { ...Object.fromEntries(KINDS.map((k) => [k, []])), lookups: ['l1', 'l2'] },
        },
      ],
      ['extra b', {}],
    ]);
    const full = await list(ctx, { filter: ownFilter(ctx) });
    const rows = docs(full.json);
    if (
      !ctx.expect.equal(
        'OPS-CPA-LIST',
        "the list of the run's packs: success and rows",
        { success: ok(full), rows: rows.length },
        { success: true, rows: made.length },
        full,
      )
    )
      return;
    // "Returned only when no fields parameter is given" forbids them with fields; that they come without it is the SHOULD.
    const lacking = rows.filter((r) => EXTRA.some((f) => r[f] === undefined));
    ctx.expect.equal(
      'OPS-CPA-LIST-EXTRA-FIELDS-DEFAULT',
      `rows listed without fields that lack one of ${EXTRA.join(', ')}`,
      lacking.map((r) => `${String(r._key)} lacks ${lackingFields(r, EXTRA).join(', ')}`),
      [],
      full,
    );
    if (rows[0])
      ctx.observe(
        'OPS-CPA-LIST-EXTRA-FIELDS',
        `counts look like ops_objects_counts ${JSON.stringify(rows[0].ops_objects_counts)}, platform_objects_counts ${JSON.stringify(rows[0].platform_objects_counts)}`,
      );
    const byKey = new Map(rows.map((r) => [String(r._key), r]));
    const form = await arrayForm(ctx, byKey);
    const property = fc.asyncProperty(fc.subarray(LISTED, { minLength: 1 }), async (fields) => {
      const ex = await list(ctx, { filter: ownFilter(ctx), fields: form(fields) });
      const got = docs(ex.json);
      if (!ok(ex) || got.length !== made.length)
        throw new Violation(
          `fields=${fields.join(',')} answered ${ex.status} with ${got.length} rows, not ${made.length}`,
          'OPS-CPA-LIST',
          ex,
          {
            expected: `a success with ${made.length} rows`,
            actual: `${ex.status} with ${got.length} rows`,
          },
        );
      for (const r of got) {
        const extra = EXTRA.filter((f) => r[f] !== undefined);
        if (extra.length)
          throw new Violation(`fields=${fields.join(',')}: row ${r._key} carries ${extra.join(', ')}`, 'OPS-CPA-LIST-EXTRA-FIELDS', ex, {
            expected: `none of ${EXTRA.join(', ')}`,
            actual: extra.join(', '),
          });
        const whole = byKey.get(String(r._key)) ?? {};
        // The status may move between two reads (how is not shown): the client-written fields are compared, in any key order.
        const wrong = fields.filter((f) => f !== 'status' && whole[f] !== undefined && !same(r[f], whole[f]));
        const unasked = LISTED.filter((k) => r[k] !== undefined && !fields.includes(k));
        if (wrong.length || unasked.length)
          throw new Violation(
            `fields=${fields.join(',')}: row ${r._key} ${wrong.length ? `has ${wrong.map((f) => `${f}=${compact(r[f])}`).join(', ')}, the full list ${wrong.map((f) => compact(whole[f])).join(', ')}` : `also carries ${unasked.join(', ')}`}`,
            'OPS-CPA-LIST',
            ex,
          );
      }
    });
    await checkProperty(ctx, ['OPS-CPA-LIST-EXTRA-FIELDS', 'OPS-CPA-LIST'], 'authoring list fields', property, {
      runs: Math.min(ctx.options.runs, 10),
      concurrent: true,
    });
  },
};

const SIZE = 6;

const paging: OpsCheck = {
  id: 'ops.authoring.list-paging',
  title:
    'The authoring list MUST apply filter, then sort by sort_key in sort_dir order (asc or des), then skip offset and return at most count packs',
  requirements: ['OPS-CPA-LIST'],
  uses: ['authoring'],
  async run(ctx) {
    const words = fc.sample(fc.uniqueArray(word, { minLength: 2 * SIZE, maxLength: 2 * SIZE }), { seed: ctx.options.seed, numRuns: 1 })[0];
    const made = await createPacks(
      ctx,
      Array.from({ length: SIZE }, (_, i) => [`cpa ${words[i]}`, { description: words[SIZE + i] }] as [string, Doc]),
    );
    const filtered = await list(ctx, { filter: ownFilter(ctx) });
    const mine = made.map((m) => m.key);
    if (
      !ctx.expect.that(
        'OPS-CPA-LIST',
        "the list filtered on the run's titles",
        ok(filtered) && sameSet(keysOf(filtered), mine),
        {
          expected: `a success listing the run's ${mine.length} packs ${mine.join(', ')}`,
          actual: `${filtered.status} listing ${keysOf(filtered).join(', ') || 'none'}`,
        },
        filtered,
      )
    )
      return;
    // The document writes the list's path as `content_pack/`, with a trailing slash: that form lists the same packs.
    const slashed = await ctx.http.send('cpAuthList', { query: { filter: ownFilter(ctx) }, path: (p) => `${p}/` });
    ctx.expect.that(
      'OPS-CPA-LIST',
      "the list at the documented path content_pack/ (trailing slash), filtered on the run's titles",
      ok(slashed) && sameSet(keysOf(slashed), mine),
      {
        expected: `a success listing the run's ${mine.length} packs ${mine.join(', ')}`,
        actual: `${slashed.status} listing ${keysOf(slashed).join(', ') || 'none'}`,
      },
      slashed,
    );
    const property = fc.asyncProperty(
      fc.constantFrom('title', 'description'),
      fc.constantFrom('asc', 'des'),
      fc.integer({ min: 1, max: SIZE + 1 }),
      async (key, dir, size) => {
        const whole = await list(ctx, { filter: ownFilter(ctx), sort_key: key, sort_dir: dir });
        const all = keysOf(whole);
        // The order under the collation the server's answer follows, where it follows one (the document names none).
        const orders = orderings(
          made,
          (m) => String(m.body[key]),
          dir === 'asc' ? 1 : -1,
          (m) => m.key,
          all,
        );
        const expected = orders[0]!;
        if (JSON.stringify(all) !== JSON.stringify(expected)) {
          const reversed = orders.some((o) => JSON.stringify([...all].reverse()) === JSON.stringify(o));
          throw new Violation(
            `sorted by ${key} with sort_dir=${dir} the packs came ${reversed ? 'in the opposite order' : 'out of order'}: ${all.join(',')} instead of ${expected.join(',')}`,
            'OPS-CPA-LIST',
            whole,
            { expected: expected.join(','), actual: all.join(',') },
          );
        }
        for (let offset = 0; offset < SIZE + size; offset += size) {
          const page = await list(ctx, { filter: ownFilter(ctx), sort_key: key, sort_dir: dir, count: size, offset });
          const got = keysOf(page);
          const want = expected.slice(offset, offset + size);
          if (!ok(page) || JSON.stringify(got) !== JSON.stringify(want))
            throw new Violation(
              `count=${size} offset=${offset} sorted by ${key} ${dir} gave ${got.join(',') || '(none)'}, expected ${want.join(',') || '(none)'}`,
              'OPS-CPA-LIST',
              page,
              {
                expected: want.join(',') || '(none)',
                actual: `${page.status} ${got.join(',') || '(none)'}`,
              },
            );
        }
      },
    );
    // The descending order under its documented spelling `des` is always tried, on top of the generated cases.
    await checkProperty(ctx, 'OPS-CPA-LIST', 'authoring list sort and paging', property, {
      runs: Math.ceil(ctx.options.runs / 2) + 1,
      examples: [['title', 'des', 4]],
      concurrent: true,
    });
  },
};

/** The run's packs as created, and a fresh read of them: what a list with `status` is judged against. */
interface StatusPacks {
  made: { key: string }[];
  packs: Doc[];
  readAll: () => Promise<Doc[]>;
}

/**
 * The list with `status` (and `search`, when given) lists exactly the run's packs in that status and none in another.
 * How packs move between statuses is not shown, and a queued pack may move on by itself: a pack counts as in
 * `status` when it reads so both before and after the list, and one that moved meanwhile may be listed or not.
 */
async function judgeStatusList(ctx: OpsContext, { made, packs, readAll }: StatusPacks, status: string, search?: string): Promise<void> {
  const ex = await list(ctx, search === undefined ? { status } : { status, search });
  const after = await readAll();
  const rows = docs(ex.json);
  const others = rows.filter((r) => r.status !== status);
  const want = packs.filter((p, i) => p?.status === status && after[i]?.status === status).map((p) => String(p._key));
  const moved = packs.filter((p, i) => p?.status !== after[i]?.status).map((p) => String(p._key));
  const got = rows.map((r) => String(r._key)).filter((k) => made.some((m) => m.key === k) && !moved.includes(k));
  const asked = `the list with status=${status}${search === undefined ? '' : ` and search=${search}`}`;
  ctx.expect.that(
    'OPS-CPA-LIST-STATUS',
    asked,
    ok(ex) && others.length === 0 && sameSet(got, want),
    {
      expected: `a success listing only packs in ${status}, of the run's: ${want.join(', ') || 'none'}`,
      actual: `${ex.status}; statuses ${compact([...new Set(rows.map((r) => r.status))])}; of the run's: ${got.join(', ') || 'none'}`,
    },
    ex,
  );
  if (search === undefined) return;
  const stray = rows.filter(
    (r) =>
      !String(r.title ?? '')
        .toLowerCase()
        .includes(search.toLowerCase()),
  );
  ctx.expect.that(
    'OPS-CPA-LIST-SEARCH',
    `${asked}: titles that do not contain the search`,
    ok(ex) && stray.length === 0,
    { expected: 'none', actual: compact(stray.map((r) => r.title)) },
    ex,
  );
}

const statusAndSearch: OpsCheck = {
  id: 'ops.authoring.list-status-search',
  title:
    'The authoring list with status MUST return exactly the packs in that status; with search MUST return exactly the packs whose title contains it',
  requirements: ['OPS-CPA-LIST-STATUS', 'OPS-CPA-LIST-SEARCH', 'OPS-CPA-STATUS'],
  shares: ['authoring'],
  async run(ctx) {
    const words = fc.sample(fc.uniqueArray(fc.stringMatching(/^[a-z]{4,8}$/), { minLength: 5, maxLength: 5 }), {
      seed: ctx.options.seed,
      numRuns: 1,
    })[0];
    const asked = fc.sample(fc.shuffledSubarray(STATUSES, { minLength: 5, maxLength: 5 }), { seed: ctx.options.seed, numRuns: 1 })[0];
    const made = await createPacks(
      ctx,
      words.map((w, i) => [`cpa search ${w}`, { status: asked[i] }] as [string, Doc]),
    );
    const readAll = () => Promise.all(made.map(async (m) => asDoc((await read(ctx, m.key)).json)));
    const packs = await readAll();
    const honoured = packs.filter((p, i) => p?.status === asked[i]).length;
    for (const status of STATUSES) await judgeStatusList(ctx, { made, packs, readAll }, status);
    // Both parameters at once narrow by both: a search every pack of the run's holds leaves the status to decide.
    for (const status of new Set(packs.map((p) => p?.status).filter((v): v is string => STATUSES.includes(String(v)))))
      await judgeStatusList(ctx, { made, packs, readAll }, status, ctx.options.runTag);
    const all = await list(ctx);
    const odd = docs(all.json).filter((r) => !STATUSES.includes(String(r.status)));
    ctx.observe('OPS-CPA-STATUS', `${honoured} of 5 packs created with a status kept it`);
    ctx.expect.equal(
      'OPS-CPA-STATUS',
      'the list of every pack: success and statuses outside the six',
      { success: ok(all), odd: [...new Set(odd.map((o) => o.status))] },
      { success: true, odd: [] },
      all,
    );

    const notes = new Set<string>();
    const searched = async (q: string) => {
      const ex = await list(ctx, { search: q });
      if (!ok(ex))
        throw new Violation(`search=${q} answered ${shown(ex)}`, 'OPS-CPA-LIST-SEARCH', ex, { expected: 'a success', actual: shown(ex) });
      const rows = docs(ex.json);
      const stray = rows.filter(
        (r) =>
          !String(r.title ?? '')
            .toLowerCase()
            .includes(q.toLowerCase()),
      );
      if (stray.length)
        throw new Violation(
          `search=${q} listed ${stray.map((r) => JSON.stringify(r.title)).join(', ')}, whose title does not contain it`,
          'OPS-CPA-LIST-SEARCH',
          ex,
          {
            expected: `titles containing ${JSON.stringify(q)}`,
            actual: compact(stray.map((r) => r.title)),
          },
        );
      const got = new Set(rows.map((r) => String(r._key)));
      const lost = made.filter((m) => String(m.body.title).includes(q) && !got.has(m.key));
      if (lost.length)
        throw new Violation(
          `search=${q} left out ${lost.map((m) => JSON.stringify(m.body.title)).join(', ')}, whose title contains it`,
          'OPS-CPA-LIST-SEARCH',
          ex,
          {
            expected: `with ${lost.map((m) => JSON.stringify(m.body.title)).join(', ')}`,
            actual: 'without them',
          },
        );
      const folded = made.filter((m) => !String(m.body.title).includes(q) && String(m.body.title).toLowerCase().includes(q.toLowerCase()));
      if (folded.length)
        notes.add(`search matches titles ${folded.every((m) => got.has(m.key)) ? 'regardless of case' : 'case-sensitively'}`);
    };
    // A piece of one title's last word, as written and upper-cased; whole titles and a string no title holds.
    const piece = fc.tuple(fc.constantFrom(...words), fc.nat(), fc.nat()).map(([w, a, b]) => {
      const start = a % (w.length - 1);
      return w.slice(start, start + 2 + (b % (w.length - start - 1)));
    });
    const property = fc.asyncProperty(piece, fc.constantFrom(...made.map((m) => String(m.body.title))), async (q, title) => {
      for (const text of [q, q.toUpperCase(), title, `${ctx.options.runTag}absent`]) await searched(text);
    });
    await checkProperty(ctx, 'OPS-CPA-LIST-SEARCH', 'authoring list search', property, {
      runs: Math.ceil(ctx.options.runs / 2),
      concurrent: true,
    });
    for (const n of notes) ctx.observe('OPS-CPA-LIST-SEARCH', n);
  },
};

const count: OpsCheck = {
  id: 'ops.authoring.count',
  title:
    'GET content_pack_authorship/content_pack/count MUST answer {count} with the number of packs the filter matches; no filter counts all',
  requirements: ['OPS-CPA-COUNT'],
  shares: ['authoring'],
  async run(ctx) {
    const made = await createPacks(ctx, [
      ['count a', {}],
      ['count b', {}],
      ['count c', {}],
    ]);
    const counted = async (filter?: string) => {
      const ex = await ctx.http.send('cpAuthCount', { query: { filter } });
      return { ex, n: countOf(ex) };
    };
    const own = await counted(ownFilter(ctx));
    ctx.expect.equal('OPS-CPA-COUNT', "count with the run's filter (the run made 3)", own.n, 3, own.ex);
    const one = await counted(JSON.stringify({ title: made[1].body.title }));
    ctx.expect.equal('OPS-CPA-COUNT', 'count with a filter on one title', one.n, 1, one.ex);
    const every = await counted();
    const listed = docs((await list(ctx)).json).length;
    ctx.expect.equal('OPS-CPA-COUNT', 'count without filter, against the rows of the list', every.n, listed, every.ex);
    const del = await ctx.http.send('cpAuthDelete', { params: id(made[0].key) });
    if (ok(del)) ctx.ledger.forget(packEntry(made[0].key));
    const after = await counted(ownFilter(ctx));
    ctx.expect.equal('OPS-CPA-COUNT', "count with the run's filter after one of its 3 packs was deleted", after.n, 2, after.ex);
  },
};

const semver = fc.tuple(fc.nat(9), fc.nat(9), fc.nat(9)).map((v) => v.join('.'));

const updateRoundTrip: OpsCheck = {
  id: 'ops.authoring.update-round-trip',
  title: 'POST content_pack_authorship/content_pack/<id> with a full pack MUST answer {_key} and store what was sent',
  requirements: ['OPS-CPA-UPDATE'],
  uses: ['authoring'],
  async run(ctx) {
    const services = await ownServices(ctx, 3);
    const [{ key }] = await createPacks(ctx, [['round trip', {}]]);
    let n = 0;
    const platform = fc.record(
      Object.fromEntries(KINDS.map((k) => [k, fc.uniqueArray(word, { maxLength: 3 })])) as Record<string, fc.Arbitrary<string[]>>,
    );
    const shape = fc.record({
      description: word,
      overview: word,
      cp_version: semver,
      platform,
      services: fc.subarray(services.map((s) => String(s._key))),
    });
    const property = fc.asyncProperty(shape, async (r) => {
      const ops = r.services.length ? { service: r.services } : {};
      const body = packBody(ctx, `round trip ${n++}`, {
        description: r.description,
        overview: r.overview,
        cp_version: r.cp_version,
        ops_objects: ops,
        platform_objects: r.platform,
        user_selected_objects: { ops_objects: ops, platform_objects: r.platform },
      });
      const upd = await ctx.http.send('cpAuthUpdate', { params: id(key), body });
      if (!ok(upd) || keyOf(upd) !== key)
        throw new Violation(`update answered ${shown(upd)}`, 'OPS-CPA-UPDATE', upd, {
          expected: `a success with {_key: ${key}}`,
          actual: shown(upd),
        });
      const got = await read(ctx, key);
      const d = asDoc(got.json);
      const stale = FIELDS.filter((f) => d[f] !== body[f]);
      const p = isDoc(d.platform_objects) ? d.platform_objects : {};
      const kinds = KINDS.filter((k) => !sameSet(Array.isArray(p[k]) ? p[k] : [], r.platform[k]));
      const opsIds = idsIn(isDoc(d.ops_objects) ? d.ops_objects.service : undefined);
      if (stale.length || kinds.length || !sameSet(opsIds, r.services))
        throw new Violation(
          `after a full update the pack reads ${[...stale.map((f) => `${f}=${JSON.stringify(d[f])}`), ...kinds.map((k) => `platform_objects.${k}=${JSON.stringify(p[k])}`), `ops_objects.service ids ${JSON.stringify(opsIds)}`].join(', ')}; sent ${JSON.stringify({ ...r, title: body.title })}`,
          'OPS-CPA-UPDATE',
          got,
        );
    });
    await checkProperty(ctx, 'OPS-CPA-UPDATE', 'authoring full update', property, { runs: Math.min(ctx.options.runs, 10) });

    // A client may send back what it read: the single read ({id: title} entries) as the full pack. Refused, or
    // stored with the same identifiers.
    const named = [String(services[0]._key)];
    const setUp = await ctx.http.send('cpAuthUpdate', {
      params: id(key),
      body: packBody(ctx, 'round trip read back', { ops_objects: { service: named } }),
    });
    if (!ok(setUp)) return;
    const before = await read(ctx, key);
    const back = await ctx.http.send('cpAuthUpdate', { params: id(key), body: before.json });
    if (!ok(back)) return ctx.observe('OPS-CPA-UPDATE', `a pack's single read sent back as its update answered ${shown(back)}`);
    const after = await read(ctx, key);
    const serviceIds = (ex: Exchange) => {
      const o = asDoc(ex.json).ops_objects;
      return idsIn(isDoc(o) ? o.service : undefined);
    };
    ctx.expect.equal(
      'OPS-CPA-UPDATE',
      'service identifiers of the pack after its single read was sent back as the update',
      serviceIds(after),
      named,
      after,
    );
  },
};

/** The sent part of a screenshot (`{path, thumb}`): a server may add members of its own. */
const shot = (v: unknown) => (isDoc(v) ? { path: v.path, thumb: v.thumb } : v);

const readBack: OpsCheck = {
  id: 'ops.authoring.read-back',
  title:
    'A custom content pack MUST read back with the metadata, platform_objects and user_selected_objects it was created with, adding no platform object of its own',
  requirements: ['OPS-CPA-CREATE', 'OPS-CPA-GET'],
  shares: ['authoring'],
  async run(ctx) {
    const services = await ownServices(ctx, 1);
    const service = String(services[0]._key);
    const macro = `${ctx.options.runTag}_macro`;
    const metadata = {
      icon: 'pack.png',
      main_screenshot: { path: 'shots/main.png', thumb: 'shots/main_thumb.png' },
      screenshots: [{ path: 'shots/one.png', thumb: 'shots/one_thumb.png' }],
    };
    const selected = { ops_objects: { service: [service] }, platform_objects: { macros: [macro] } };
    // platform_objects names macros only: the other kinds are left out, which leaves them empty.
    const made = await createPack(ctx, 'read back', {
      metadata,
      ops_objects: { service: [service] },
      platform_objects: { macros: [macro] },
      user_selected_objects: selected,
    });
    if (
      !ctx.expect.that(
        'OPS-CPA-CREATE',
        'create of a pack with metadata, macros and selected objects',
        !!made.key,
        { expected: 'a success with {_key}', actual: shown(made.ex) },
        made.ex,
      )
    )
      return;
    const got = await read(ctx, made.key!);
    const d = asDoc(got.json);
    const m = asDoc(d.metadata);
    ctx.expect.equal(
      'OPS-CPA-GET',
      'metadata of the pack as read (icon, main_screenshot and screenshots as {path, thumb})',
      {
        success: ok(got),
        icon: m.icon,
        main_screenshot: shot(m.main_screenshot),
        screenshots: Array.isArray(m.screenshots) ? m.screenshots.map(shot) : m.screenshots,
      },
      { success: true, ...metadata },
      got,
    );
    const p = asDoc(d.platform_objects);
    const platform = Object.fromEntries(KINDS.map((k) => [k, Array.isArray(p[k]) ? p[k] : p[k] === undefined ? [] : p[k]]));
    ctx.expect.equal(
      'OPS-CPA-GET',
      'platform_objects of the pack as read (a kind left out reads empty or absent)',
      platform,
      { ...Object.fromEntries(KINDS.map((k) => [k, []])), macros: [macro] },
      got,
    );
    const u = asDoc(d.user_selected_objects);
    const chosen = {
      ops_objects: { service: idsIn(asDoc(u.ops_objects).service) },
      platform_objects: { macros: asDoc(u.platform_objects).macros },
    };
    ctx.expect.equal('OPS-CPA-GET', 'user_selected_objects of the pack as read', chosen, selected, got);

    const bare = await createPack(ctx, 'read back without screenshots', { metadata: { icon: null, main_screenshot: {} } });
    // The document lists screenshots among the metadata: a server may refuse metadata without them.
    if (!bare.key) return ctx.observe('OPS-CPA-GET', `a pack whose metadata has no screenshots was refused (${shown(bare.ex)})`);
    // Metadata without screenshots is outside the documented shape: what a server keeps of it is recorded, not judged.
    const again = await read(ctx, bare.key);
    const shots = asDoc(asDoc(again.json).metadata).screenshots;
    ctx.observe('OPS-CPA-GET', `a pack created with metadata without screenshots reads ${again.status} with screenshots ${compact(shots)}`);
  },
};

export const authoringChecks: OpsCheck[] = [crud, forms, extraFields, paging, statusAndSearch, count, updateRoundTrip, readBack];
