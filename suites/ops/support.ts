import type { Check, CheckContext } from '../core/check';
import type { SendOptions } from '../core/client';
import { Unmet } from '../core/precondition';
import { sleep } from '../core/sleep';
import { specOf } from '../core/spec';
import type { Exchange } from '../core/types';
import type { Collection } from './collections';
import type { operations } from './openapi.gen';
import { OPS_SPEC } from './paths';
import type { OpsRequirementId } from './requirements.gen';
import type { OpsState } from './state';

export type { OpsRequirementId };

/** The rules of the shared query parameters ("list and bulk-delete endpoints"), one per parameter. */
export const SHARED_QUERY: OpsRequirementId[] = [
  'OPS-QUERY-SORT-KEY',
  'OPS-QUERY-SORT-DIR',
  'OPS-QUERY-LIMIT',
  'OPS-QUERY-OFFSET',
  'OPS-QUERY-FIELDS',
  'OPS-QUERY-FILTER',
];
/**
 * An ops check: its client types each success body as the document does (bodies of many object types share one
 * operation), and it names only the API's own shared state (`OpsState`) and the requirement ids of its catalogue.
 */
export type OpsCheck = Check<operations, OpsState, OpsRequirementId>;
export type OpsContext = CheckContext<operations, OpsRequirementId>;

export type { Doc } from '../core/json';
import { asDoc, isDoc, type Doc } from '../core/json';
import { escapeRegex } from './arbitraries/filters';

/** Same request, sent with `vLatest` after the interface segment (the document's second path form). */
export const vLatest = (path: string) => path.replace(/(_interface)(\/|$)/, '$1/vLatest$2');

export const tagged = (ctx: OpsContext, name: string) => `${ctx.options.runTag} ${name}`;

/** A filter that selects exactly the run's own objects: the guard every bulk delete is checked against first. */
export const ownFilter = (ctx: OpsContext, name = '') => JSON.stringify(ownTitles(ctx, name));
/** The filter node of `ownFilter`: titles the check gave, beginning with `name`. */
export const ownTitles = (ctx: OpsContext, name = '') => ({ title: { $regex: `^${escapeRegex(tagged(ctx, name))}` } });

const params = (c: Collection, key?: string): Record<string, string> =>
  key === undefined ? { object_type: c.type } : { object_type: c.type, _key: key };

export const keyOf = (ex: Exchange): string | undefined => {
  const k = asDoc(ex.json)._key;
  return typeof k === 'string' ? k : undefined;
};

/** The documented success: a 2xx that is not a refusal in its body (statuses are not shown: ApiDefinition.refusedIn2xx). */
export const ok = (ex: Exchange) => ex.status >= 200 && ex.status < 300 && !ex.refusal;

/** "Response: empty": no body, or an empty JSON value ({}, [], null, ""), however padded. */
export const emptyBody = (ex: Exchange) => ex.text.trim() === '' || ['{}', '[]', 'null', '""'].includes(JSON.stringify(ex.json));

/** Creates an object tagged as the run's own and puts it in the ledger at once. */
export interface Created {
  ex: Exchange;
  key?: string;
  body: Doc;
}

/** The ledger's name for an object of a collection. */
export const entryOf = (c: Collection, key: string) => `${c.type} ${key}`;

/** Objects created for others to refer to, per check attempt (its ledger) and purpose: each made once. */
const anchors = new WeakMap<object, Map<object, Promise<string | undefined>>>();
function anchorOf(ctx: OpsContext, scope: object, c: Collection, title: string): Promise<string | undefined> {
  let mine = anchors.get(ctx.ledger);
  if (!mine) anchors.set(ctx.ledger, (mine = new Map()));
  let key = mine.get(scope);
  if (!key) mine.set(scope, (key = createIn(ctx, c, title).then((m) => m.key)));
  return key;
}

export async function createIn(ctx: OpsContext, c: Collection, title: string, extra: Doc = {}, opts: SendOptions = {}): Promise<Created> {
  const body = {
    ...c.template(),
    ...(c.complete ? await c.complete(extra, (scope, of, what) => anchorOf(ctx, scope, of, what)) : {}),
    title: tagged(ctx, title),
    ...extra,
  };
  const ex = await ctx.http.send(c.ops.create, { ...opts, params: params(c), body });
  const key = ok(ex) ? keyOf(ex) : undefined;
  if (key) ctx.ledger.add(entryOf(c, key), () => ctx.http.send(c.ops.delete, { params: params(c, key) }));
  if (key) await writeMadeUpFields(ctx, c, key, body, opts);
  return { ex, key, body };
}

/** Fields a check makes up (`cf_…`): outside every schema, so a create may leave them out. */
const madeUp = (body: Doc) => Object.keys(body).filter((k) => k.startsWith('cf_'));

/**
 * Only a full update is said to write fields outside the schema ("With 0, fields that are not in the original schema
 * are written too"): a create may drop them. Where the object as read lacks a made-up field the check sent, the same
 * body goes again as a full update, so the checks that need such fields hold them whichever reading the server took.
 */
async function writeMadeUpFields(ctx: OpsContext, c: Collection, key: string, body: Doc, opts: SendOptions): Promise<void> {
  const fields = madeUp(body);
  if (!fields.length) return;
  // Learned once per target and collection: a server that kept them at one create keeps them at every create.
  const learned = keepsMadeUp.get(ctx.target) ?? new Map<string, boolean>();
  keepsMadeUp.set(ctx.target, learned);
  if (learned.get(c.type) === true) return;
  if (learned.get(c.type) === undefined) {
    const got = await ctx.http.send(c.ops.get, { ...opts, params: params(c, key) });
    const read = asDoc(got.json);
    const kept = ok(got) && fields.every((f) => same(read[f], body[f]));
    if (ok(got)) learned.set(c.type, kept);
    if (kept) return;
  }
  await ctx.http.send(c.ops.update, { ...opts, params: params(c, key), body: { ...body, _key: key }, query: { is_partial_data: 0 } });
}

/** Per target and collection: whether a create keeps the made-up fields it is sent (learned at the first such create). */
const keepsMadeUp = new WeakMap<object, Map<string, boolean>>();

/** A created object with its key: what a check that cannot go on without the object holds. */
export type Made = Created & { key: string };

/** `createIn` for an object the check cannot go on without: the object with its key, or Unmet with the create's answer. */
export async function createNeeded(ctx: OpsContext, c: Collection, title: string, extra: Doc = {}, opts: SendOptions = {}): Promise<Made> {
  const made = await createIn(ctx, c, title, extra, opts);
  if (!made.key) throw new Unmet(`could not create a ${c.type}, "${title}" (${made.ex.status})`, made.ex);
  return { ...made, key: made.key };
}

/**
 * Objects created together (all of them settled, so none is left out of the ledger) that the check cannot go on
 * without: all of them with their keys, or Unmet with the answer of the first refused create.
 */
export function allNeeded(made: Created[], what: string): Made[] {
  const kept = made.filter((m): m is Made => m.key !== undefined);
  const refused = made.filter((m) => m.key === undefined);
  if (refused[0])
    throw new Unmet(`could not create ${what}: ${refused.length} of ${made.length} refused (first ${refused[0].ex.status})`, refused[0].ex);
  return kept;
}

/** Deletes an object the check created and takes it off the ledger. */
export async function removeIn(ctx: OpsContext, c: Collection, made: Created): Promise<Exchange | undefined> {
  if (!made.key) return undefined;
  const ex = await deleteIn(ctx, c, made.key);
  if (ok(ex) || ex.status === 404) ctx.ledger.forget(entryOf(c, made.key));
  return ex;
}

export const getIn = (ctx: OpsContext, c: Collection, key: string, opts: SendOptions = {}) =>
  ctx.http.send(c.ops.get, { ...opts, params: params(c, key) });
export const updateIn = (ctx: OpsContext, c: Collection, key: string, body: unknown, partial?: 0 | 1, opts: SendOptions = {}) =>
  ctx.http.send(c.ops.update, {
    ...opts,
    params: params(c, key),
    body,
    query: partial === undefined ? undefined : { is_partial_data: partial },
  });
export const deleteIn = (ctx: OpsContext, c: Collection, key: string, opts: SendOptions = {}) =>
  ctx.http.send(c.ops.delete, { ...opts, params: params(c, key) });
export const listIn = (ctx: OpsContext, c: Collection, query: SendOptions['query'] = {}, opts: SendOptions = {}) =>
  ctx.http.send(c.ops.list, { ...opts, params: params(c), query });
export const countIn = (ctx: OpsContext, c: Collection, query: SendOptions['query'] = {}, opts: SendOptions = {}) =>
  ctx.http.send(c.ops.count, { ...opts, params: params(c), query });
export const bulkDeleteIn = (ctx: OpsContext, c: Collection, query: SendOptions['query'], opts: SendOptions = {}) =>
  ctx.http.send(c.ops.bulkDelete, { ...opts, params: params(c), query });

/** The rows of a list answer, as they came: a list's answer is an array of objects whatever the collection. */
export const rows = (ex: Exchange): Doc[] => (Array.isArray(ex.json) ? ex.json : []);
export const keys = (docs: Doc[]) => docs.map((d) => String(d._key));
/** Of `fields`, those `doc` does not carry (a field set to null is carried): the fields-seen rules ask for these. */
export const lackingFields = (doc: Doc, fields: readonly string[]) => fields.filter((f) => doc[f] === undefined);
/** Fields of `d` (when it is a JSON object) that are absent, each as `where.field`. */
export const absentFields = (d: unknown, fields: readonly string[], where: string) =>
  isDoc(d) ? lackingFields(d, fields).map((f) => `${where}.${f}`) : [];

/**
 * What the document's schema `name` finds wrong with a value (`at` is the JSON pointer, `(body)` for the value
 * itself): the same validation the client applies to every answer, for checks that judge one part of an answer.
 */
export const schemaFindings = (name: string, value: unknown) => specOf(OPS_SPEC).componentSchema(name).validate(value).findings;

/** The fields the document's schema `name` lists (its own properties). */
export const schemaFields = (name: string): string[] => Object.keys(specOf(OPS_SPEC).doc.components.schemas[name]?.properties ?? {});

export const countOf = (ex: Exchange): number | undefined => {
  const c = asDoc(ex.json).count;
  return typeof c === 'number' ? c : undefined;
};

export const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** The fields of an object, or of each object of an array (a list), by name. */
const fieldsOf = (v: unknown): Map<string, unknown>[] => (Array.isArray(v) ? v : [v]).map((d) => new Map(Object.entries(asDoc(d))));

/**
 * Fields whose values differ between two reads of the same thing (an object, or a list row by row): a server's own
 * bookkeeping, such as an etag or a read counter, that changes on every read. No clause is about them, so two
 * answers are compared without them.
 */
export function changing(first: unknown, second: unknown): Set<string> {
  const a = fieldsOf(first);
  const b = fieldsOf(second);
  const out = new Set<string>();
  a.forEach((row, i) => {
    for (const [k, v] of row) if (b[i] && JSON.stringify(v) !== JSON.stringify(b[i]!.get(k))) out.add(k);
  });
  return out;
}

const without = (v: unknown, skip: Set<string>): unknown =>
  Array.isArray(v)
    ? v.map((x) => without(x, skip))
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).filter(([k]) => !skip.has(k)))
      : v;

/** `same`, leaving out the fields in `skip` (of the object, or of each row of a list). */
export const sameBut = (a: unknown, b: unknown, skip: Set<string>) => same(without(a, skip), without(b, skip));
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Doc)[k])]),
    );
  return v;
}

/**
 * Before any delete by filter against data the run does not own, the same filter is read first:
 * the delete is sent only when every selected row is the run's own (`more`: further query parameters).
 */
export async function guardedBulkDelete(
  ctx: OpsContext,
  c: Collection,
  filter: string,
  more: Record<string, string | number> = {},
  opts: SendOptions = {},
): Promise<Exchange | undefined> {
  const preview = await listIn(ctx, c, { filter });
  const foreign = rows(preview).filter((r) => !String(r.title ?? '').startsWith(`${ctx.options.runTag} `));
  if (!ok(preview) || foreign.length) return undefined;
  // The other shared parameters (sort, page) only narrow what the filter selects.
  return bulkDeleteIn(ctx, c, { ...more, filter }, opts);
}

/**
 * The whole collection's count against its list. Other checks may be writing meanwhile, so the count is read
 * between two lists: a try counts only when both lists agree, and a mismatch fails only if every such try shows it.
 */
export async function assertWholeCount(
  ctx: OpsContext,
  c: Collection,
  requirement: OpsRequirementId,
  noun: string,
  opts: SendOptions = {},
): Promise<void> {
  // Each moment the list held still around the count and the count differed from it.
  const mismatches: { count: Exchange; listed: number }[] = [];
  // Only the keys: the whole collection of a large deployment is read, and nothing but how many rows it holds matters.
  const whole = () => listIn(ctx, c, { fields: '_key' }, opts);
  for (let i = 0; i < 6; i++) {
    const first = keys(rows(await whole())).sort();
    const count = await countIn(ctx, c, {}, opts);
    const second = keys(rows(await whole())).sort();
    if (same(first, second)) {
      if (countOf(count) === second.length)
        return void ctx.expect.equal(requirement, `count without filter, against the list's ${noun}`, countOf(count), second.length, count);
      mismatches.push({ count, listed: second.length });
    }
    await sleep(50 * 2 ** i);
  }
  // An object another check created and deleted between the two lists gives a mismatch that comes and goes, by one
  // or two; a wrong count is off by the same amount each time the list held still: three such are the count's own.
  const delta = (m: { count: Exchange; listed: number }) => (countOf(m.count) ?? Number.NaN) - m.listed;
  const steady = mismatches.filter((m) => mismatches.filter((n) => delta(n) === delta(m)).length >= 3);
  const last = steady.at(-1) ?? mismatches.at(-1);
  if (last && steady.length)
    ctx.expect.equal(
      requirement,
      `count without filter, against the list's ${noun} (each time the list held still around the count)`,
      countOf(last.count),
      last.listed,
      last.count,
    );
  else if (last)
    ctx.untested(
      requirement,
      `the ${c.type} collection held still around the count ${mismatches.length} time(s), and the count differed by varying amounts: too little to tell a wrong count from other checks' writes`,
      last.count,
    );
  else ctx.untested(requirement, `the ${c.type} collection never held still long enough to compare its count with its list`);
}

export { sleep };
