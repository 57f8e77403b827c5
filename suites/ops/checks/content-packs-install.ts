import { compact } from '../../core/expect';
import type { Exchange } from '../../core/types';
import { SERVICE } from '../collections';
import { absentFields, getIn, listIn, ok, ownFilter, schemaFindings, type Doc, type OpsCheck, type OpsContext } from '../support';
import { isDoc } from '../../core/json';
import { need } from '../../core/precondition';
import { sleep } from '../../core/sleep';
import { limiter } from '../../core/transport';
import { perTarget } from '../../core/per-target';
import {
  docs,
  failures,
  member,
  listPacks,
  packsOf,
  packParams,
  previewOf,
  savedSearchesOf,
  str,
  successEntries,
  successIds,
} from './content-packs-support';

/**
 * The group the document's preview example calls `services`. Installs are limited to services wherever the rule
 * allows it: they can be found and deleted again over the core interface, unlike saved searches or correlation
 * searches, which this API cannot remove.
 */
const SERVICES = 'services';

/** Object types the groups of the document's examples install, for the groups the core interface can delete. */
export const GROUP_TYPES: Record<string, string> = {
  services: 'service',
  glass_tables: 'glass_table',
  service_analyzers: 'home_view',
  entity_types: 'entity_type',
  kpi_base_searches: 'kpi_base_search',
  deep_dives: 'deep_dive',
  service_templates: 'base_service_template',
  kpi_threshold_templates: 'kpi_threshold_template',
  teams: 'team',
};

interface Entry {
  id: string;
  title: string;
  /**
   * The preview does not say the object has no dependency (`has_dependency` true or absent): an install may bring
   * the objects it depends on along, so other objects it installs are not held against `content`.
   */
  dependent?: boolean;
}
export interface Candidate {
  pack: Doc;
  groups: Record<string, Entry[]>;
  /** Services of the pack that are neither installed nor present under their identifier. */
  free: Entry[];
  /** The preview says the pack holds saved searches, which this API cannot remove once installed. */
  saved: boolean;
}

const entriesOf = (preview: Doc): Record<string, (Entry & { installed?: unknown })[]> =>
  Object.fromEntries(
    Object.entries(preview)
      .filter(([g, v]) => g !== 'saved_searches' && Array.isArray(v))
      .map(([g, v]) => [
        g,
        docs(v).flatMap((e) =>
          str(e.id) && str(e.title) ? [{ id: e.id, title: e.title, installed: e.installed, dependent: e.has_dependency !== false }] : [],
        ),
      ]),
  );

/** Packs with services the run can install and remove again, most free services first. */
export async function candidates(ctx: OpsContext): Promise<Candidate[]> {
  // Reads only: the previews, and the services under each identifier, are asked for together.
  const packs = packsOf(await listPacks(ctx)).filter((p) => str(p.id) && str(p.version));
  const found = await Promise.all(
    packs.map(async (pack): Promise<Candidate | undefined> => {
      const ex = await previewOf(ctx, pack);
      if (!ok(ex) || !isDoc(ex.json)) return undefined;
      const groups = entriesOf(ex.json);
      const notInstalled = (groups[SERVICES] ?? []).filter((e) => e.installed !== true);
      const present = await Promise.all(notInstalled.map(async (e) => ok(await getIn(ctx, SERVICE, e.id))));
      // Those the preview says depend on nothing first: an install of one of them installs it alone.
      const free = notInstalled
        .filter((_, i) => !present[i])
        .map((e) => ({ id: e.id, title: e.title, dependent: e.dependent }))
        .sort((a, b) => Number(a.dependent) - Number(b.dependent));
      const saved = savedSearchesOf(ex.json)?.has === true;
      return { pack, groups, free, saved };
    }),
  );
  // A stable sort: packs with as many free services keep the library's order.
  return found.filter((c): c is Candidate => c !== undefined).sort((a, b) => b.free.length - a.free.length);
}

/** A service the run may install and remove again, with the pack that previews it. */
export interface Lane {
  pack: Doc;
  x: Entry;
}

/**
 * Up to `max` services for cases that run side by side, each with its pack: the first free service of the best
 * candidate, as a check with one lane takes it, then others only while every one chosen depends on nothing (an
 * install of a dependent service may bring others along, another lane's among them) and neither its identifier nor
 * its title is another lane's, so that no lane's install or lookup reaches another's service.
 */
export function lanesOf(cands: Candidate[], max: number): Lane[] {
  const first = cands.find((c) => c.free.length > 0);
  if (!first) return [];
  const lanes: Lane[] = [{ pack: first.pack, x: first.free[0]! }];
  if (lanes[0]!.x.dependent) return lanes;
  for (const c of cands)
    for (const x of c.free) {
      if (lanes.length >= max) return lanes;
      if (x.dependent || lanes.some((l) => l.x.id === x.id || l.x.title === x.title)) continue;
      lanes.push({ pack: c.pack, x });
    }
  return lanes;
}

/** The preview group that lists the objects of each object type (the first, where two groups hold one type). */
const TYPE_GROUPS: Record<string, string> = Object.fromEntries(Object.entries(GROUP_TYPES).map(([group, type]) => [type, group]));

/**
 * Installs go to a target one at a time, whichever lane sends them: whether a server takes two installs at once is not
 * said, and one that refuses or queues the second must not fail a check for it. The reads and deletes between them
 * still go out side by side.
 */
const turns = perTarget(() => limiter(1));
const installTurn = (ctx: OpsContext) => turns(ctx.target);

/**
 * An install. The document: `content` is "sent as an object mapping object-type name to an array of identifiers",
 * chosen from a preview keyed by object-type group (`services`). A server that takes the group names as the keys read
 * that sentence the other way: where an install naming object types is refused, the same install naming their groups
 * (`groups`, by type; the preview's own where the caller knows it) is sent, and an answer that succeeded stands.
 */
export async function install(ctx: OpsContext, pack: Doc, body: Doc, groups: Record<string, string> = {}): Promise<Exchange> {
  const turn = installTurn(ctx);
  const send = (b: Doc) => turn.run(() => ctx.http.send('contentPackInstall', { params: packParams(pack), body: b }));
  const first = await send(body);
  const content = isDoc(body.content) ? body.content : undefined;
  if (ok(first) || !content) return first;
  const byGroup = Object.fromEntries(Object.entries(content).map(([type, ids]) => [groups[type] ?? TYPE_GROUPS[type] ?? type, ids]));
  if (Object.keys(byGroup).every((k) => k in content)) return first;
  const second = await send({ ...body, content: byGroup });
  return ok(second) ? second : first;
}
/** The document: `content` is "sent as an object mapping object-type name to an array of identifiers". */
const SERVICE_TYPE = 'service';
export const only = (id: string, extra: Doc = {}): Doc => onlyThese([id], extra);
const onlyThese = (ids: string[], extra: Doc = {}): Doc => ({ content: { [SERVICE_TYPE]: ids }, ...extra });

/** The InstallResult schema's findings in one member of the result (or in the result as a whole). */
const findingsIn = (ex: Exchange, members: string[]) =>
  schemaFindings('InstallResult', ex.json).filter(
    (f) => f.at === '(body)' || members.some((m) => f.at === `/${m}` || f.at.startsWith(`/${m}/`)),
  );

/**
 * `success` and `failure` as the InstallResult schema gives them; the schema types their entries' fields without
 * requiring them, while the document's result shows every entry with all of them, so an absent one counts too.
 */
export function resultProblems(ex: Exchange): string[] {
  const items = docs(member(ex, 'success')).flatMap((g) =>
    Object.entries(g).flatMap(([group, entries]) =>
      docs(entries).flatMap((i, n) => absentFields(i, ['id', 'title'], `success.${group}[${n}]`)),
    ),
  );
  const failures = docs(member(ex, 'failure')).flatMap((f, n) => absentFields(f, ['content_type', 'id', 'title', 'type'], `failure[${n}]`));
  return [...findingsIn(ex, ['success', 'failure']).map((f) => f.message), ...[...items, ...failures].map((f) => `${f} is absent`)];
}

/**
 * The newer `saved_searches` member as the schema gives it, with its fields (optional in the schema) all present, as
 * in the document's result; undefined when the result does not carry it.
 */
export function savedSearchProblems(ex: Exchange): string[] | undefined {
  const s = member(ex, 'saved_searches');
  if (s === undefined) return undefined;
  const absent = [
    ...absentFields(s, ['action_performed', 'success', 'failure'], 'saved_searches'),
    ...(isDoc(s) ? docs(s.failure).flatMap((f, n) => absentFields(f, ['name', 'error_message'], `saved_searches.failure[${n}]`)) : []),
  ];
  return [
    ...findingsIn(ex, ['saved_searches'])
      .filter((f) => f.at !== '(body)')
      .map((f) => f.message),
    ...absent.map((f) => `${f} is absent`),
  ];
}

/** Puts an object an install made on the ledger, by type and key. */
export type Track = (type: string, key: unknown) => void;

export function tracker(ctx: OpsContext): Track {
  const track = (type: string, key: unknown) => {
    if (str(key)) ctx.ledger.add(`${type} ${key}`, () => ctx.http.send('coreDelete', { params: { object_type: type, _key: key } }));
  };
  // A target that lists a write late can hide an install's objects from the sweeps that find them: once the rest of
  // the cleanup has gone out and the settle bound has passed, what still carries the tag is swept and removed.
  if (ctx.options.settleS > 0) ctx.ledger.add('objects an install left under the run tag', () => lateSweep(ctx));
  return track;
}

async function lateSweep(ctx: OpsContext): Promise<void> {
  await sleep(ctx.options.settleS * 1000);
  const left: [string, string][] = [];
  await sweep(ctx, (type, key) => left.push([type, String(key)]));
  await Promise.all(left.map(([type, key]) => ctx.http.send('coreDelete', { params: { object_type: type, _key: key } })));
}

/** The installed service: by one of the titles it may carry (in that order), or else under the pack's identifier. */
export async function findService(ctx: OpsContext, id: string, titles: string[]): Promise<Doc | undefined> {
  // The titles a check installs under all carry its run tag: one list of its own rows holds every one of them.
  const own = titles.length ? docs((await listIn(ctx, SERVICE, { filter: ownFilter(ctx) })).json) : [];
  const byTitle = titles.map((t) => own.find((d) => d.title === t)).find((d) => d !== undefined);
  if (byTitle) return byTitle;
  const byKey = await getIn(ctx, SERVICE, id);
  return ok(byKey) && isDoc(byKey.json) ? byKey.json : undefined;
}

/** Every object of a deletable type whose title carries the run tag, so whatever an install put there is removed. */
export async function sweep(ctx: OpsContext, track: Track): Promise<Record<string, string[]>> {
  // Reads only, one list per type, asked for together.
  const types = [...new Set(Object.values(GROUP_TYPES))];
  const lists = await Promise.all(
    types.map((type) => ctx.http.send('coreList', { params: { object_type: type }, query: { filter: ownFilter(ctx) } })),
  );
  const found: Record<string, string[]> = {};
  types.forEach((type, i) => {
    const keys = docs(lists[i]!.json)
      .filter((d) => String(d.title ?? '').startsWith(`${ctx.options.runTag} `))
      .map((d) => String(d._key));
    for (const k of keys) track(type, k);
    if (keys.length) found[type] = keys;
  });
  return found;
}

/**
 * "install only these objects", with several named and one left out: two named and a third left out where the pack
 * has three free services; with two, one named and the other left out, then (what that install left removed) both
 * named. Each install is judged on its own.
 */
async function installNamedSets(ctx: OpsContext, c: Candidate, prefix: string, track: Track): Promise<void> {
  const [x, y, z] = c.free as [Entry, Entry, Entry | undefined];
  if (z) return void (await installNamed(ctx, c, [x, y], z, prefix, track));
  const swept = await installNamed(ctx, c, [x], y, prefix, track);
  for (const [type, keys] of Object.entries(swept))
    for (const k of keys) await ctx.http.send('coreDelete', { params: { object_type: type, _key: k } });
  await installNamed(ctx, c, [x, y], undefined, prefix, track);
}

/**
 * Install with `content` naming services: every one named is installed, `z` (left out) is not, and objects of other
 * types the install left are judged where the preview says the named ones depend on nothing. Answers what it left.
 */
async function installNamed(
  ctx: OpsContext,
  c: Candidate,
  named: Entry[],
  z: Entry | undefined,
  prefix: string,
  track: Track,
): Promise<Record<string, string[]>> {
  const ids = named.map((e) => e.id);
  const ex = await install(ctx, c.pack, onlyThese(ids, { prefix, resolution: 'skip' }));
  const swept = await sweep(ctx, track);
  ctx.expect.status('OPS-CP-INSTALL', `install of ${ids.join(', ')} from ${c.pack.id}`, ex, '2xx');
  ctx.expect.equal('OPS-CP-INSTALL-RESULT', 'problems of success and failure in the result', resultProblems(ex), [], ex);
  const dependent = named.some((e) => e.dependent);
  const reported = successIds(ex);
  ctx.expect.that(
    'OPS-CP-INSTALL-CONTENT',
    `identifiers success reports for content {${SERVICE_TYPE}: [${ids.join(', ')}]}`,
    ids.every((id) => reported.includes(id)) && (dependent || reported.every((id) => ids.includes(id))),
    { expected: dependent ? `${ids.join(' and ')}, and what they depend on` : `${ids.join(' and ')} alone`, actual: compact(reported) },
    ex,
  );
  const found = await Promise.all(named.map((e) => findService(ctx, e.id, [prefix + e.title])));
  ctx.expect.equal(
    'OPS-CP-INSTALL-CONTENT',
    'the named services the install left missing',
    named.filter((_, i) => !found[i]).map((e) => e.id),
    [],
    ex,
  );
  const zThere = z ? await findService(ctx, z.id, [prefix + z.title]) : undefined;
  track('service', zThere?._key);
  const installed = new Set(found.map((d) => `service ${String(d?._key)}`));
  const stray = Object.entries(swept)
    .flatMap(([type, keys]) => keys.map((k) => `${type} ${k}`))
    .filter((k) => !installed.has(k));
  if (dependent)
    ctx.observe(
      'OPS-CP-INSTALL-CONTENT',
      `the preview does not say ${ids.join(' and ')} depend on nothing; besides them the install left ${zThere ? z!.id : compact(stray)}`,
    );
  else
    ctx.expect.that('OPS-CP-INSTALL-CONTENT', `objects besides ${ids.join(' and ')} the install left`, !zThere && stray.length === 0, {
      expected: 'none',
      actual: zThere ? `${z!.id}, which content did not name` : compact(stray),
    });
  return swept;
}

export const installContent: OpsCheck = {
  id: 'ops.content-packs.install-content',
  title:
    'Install with content MUST install only the objects named; without content it MUST install every object of the pack, and a pack whose install reports saved searches SHOULD say has_saved_searches in its preview',
  requirements: ['OPS-CP-INSTALL', 'OPS-CP-INSTALL-CONTENT', 'OPS-CP-INSTALL-RESULT', 'OPS-CP-PREVIEW-SAVED-SEARCHES'],
  shares: ['content-packs'],
  destructive: true,
  async run(ctx) {
    const all = await candidates(ctx);
    need(all.length, 'the library lists no content pack whose preview answers');
    const prefix = `${ctx.options.runTag} `;
    const track = tracker(ctx);
    const two = all.find((c) => c.free.length >= 3) ?? all.find((c) => c.free.length >= 2);
    if (!two) ctx.untested('OPS-CP-INSTALL-CONTENT', 'no content pack has two services that are not installed yet');
    else await installNamedSets(ctx, two, prefix, track);

    // Without content: the pack with the fewest objects this API cannot remove, then the fewest objects.
    const cost = (c: Candidate) =>
      (Object.keys(c.groups).filter((g) => !GROUP_TYPES[g]).length + Number(c.saved)) * 1000 + Object.values(c.groups).flat().length;
    const pick = [...all].sort((a, b) => cost(a) - cost(b))[0]!;
    const fresh = await previewOf(ctx, pick.pack);
    const expected = Object.entries(entriesOf(isDoc(fresh.json) ? fresh.json : {})).flatMap(([g, es]) =>
      es.filter((e) => e.installed === false).map((e) => [g, e.id] as const),
    );
    const ex = await install(ctx, pick.pack, { prefix, resolution: 'skip' });
    await sweep(ctx, track);
    ctx.expect.status('OPS-CP-INSTALL', `install of all of ${pick.pack.id}`, ex, '2xx');
    const reported = new Set([
      ...successEntries(ex).map((e) => `${e.group}/${e.id}`),
      ...failures(ex).map((f) => `${String(f.content_type)}/${f.packId}`),
    ]);
    const missing = expected.filter(([g, id]) => !reported.has(`${g}/${id}`) && ![...reported].some((r) => r.endsWith(`/${id}`)));
    ctx.expect.equal(
      'OPS-CP-INSTALL-CONTENT',
      `install of all of ${pick.pack.id}: success, and of the ${expected.length} objects the preview showed as not installed, those neither installed nor reported as failed`,
      { success: ok(ex), missing: missing.map(([g, id]) => `${g} ${id}`) },
      { success: true, missing: [] },
      ex,
    );
    // A pack whose whole install reports saved searches installed holds saved searches, as its preview should say.
    const saved = member(ex, 'saved_searches');
    const savedNames = isDoc(saved) && Array.isArray(saved.success) ? saved.success : [];
    const flags = savedSearchesOf(fresh.json);
    if (savedNames.length && flags)
      ctx.expect.equal(
        'OPS-CP-PREVIEW-SAVED-SEARCHES',
        `has_saved_searches in the preview of ${pick.pack.id}, whose whole install reported saved searches ${compact(savedNames)} installed`,
        flags.has,
        true,
        fresh,
      );
    const kept = [
      ...Object.keys(pick.groups).filter((g) => !GROUP_TYPES[g] && pick.groups[g].length),
      ...(pick.saved ? ['saved searches'] : []),
    ];
    if (kept.length)
      ctx.observe(
        'OPS-CP-INSTALL-CONTENT',
        `the ${kept.join(', ')} of ${pick.pack.id} installed by this check cannot be removed over this API and were left in place`,
      );
  },
};
