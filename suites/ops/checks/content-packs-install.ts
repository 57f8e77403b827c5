import fc from 'fast-check';
import { checkProperty, Violation } from '../../core/property';
import { compact } from '../../core/expect';
import type { Exchange } from '../../core/types';
import { SERVICE } from '../collections';
import {
  absentFields,
  deleteIn,
  getIn,
  listIn,
  ok,
  ownFilter,
  schemaFindings,
  updateIn,
  type Doc,
  type OpsCheck,
  type OpsContext,
} from '../support';
import { isDoc } from '../../core/json';
import { need } from '../../core/precondition';
import { sleep } from '../../core/sleep';
import {
  docs,
  failures,
  enabledOf,
  failuresFor,
  member,
  listPacks,
  packsOf,
  packParams,
  previewOf,
  savedSearchesOf,
  shown,
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
interface Candidate {
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
async function candidates(ctx: OpsContext): Promise<Candidate[]> {
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

/** The preview group that lists the objects of each object type (the first, where two groups hold one type). */
const TYPE_GROUPS: Record<string, string> = Object.fromEntries(Object.entries(GROUP_TYPES).map(([group, type]) => [type, group]));

/**
 * An install. The document: `content` is "sent as an object mapping object-type name to an array of identifiers",
 * chosen from a preview keyed by object-type group (`services`). A server that takes the group names as the keys read
 * that sentence the other way: where an install naming object types is refused, the same install naming their groups
 * (`groups`, by type; the preview's own where the caller knows it) is sent, and an answer that succeeded stands.
 */
export async function install(ctx: OpsContext, pack: Doc, body: Doc, groups: Record<string, string> = {}): Promise<Exchange> {
  const send = (b: Doc) => ctx.http.send('contentPackInstall', { params: packParams(pack), body: b });
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
const only = (id: string, extra: Doc = {}): Doc => onlyThese([id], extra);
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
function savedSearchProblems(ex: Exchange): string[] | undefined {
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

/** Deletes, when the check ends, every object the installs of this check left (the ledger holds each key once). */
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
async function findService(ctx: OpsContext, id: string, titles: string[]): Promise<Doc | undefined> {
  // The titles a check installs under all carry its run tag: one list of its own rows holds every one of them.
  const own = titles.length ? docs((await listIn(ctx, SERVICE, { filter: ownFilter(ctx) })).json) : [];
  const byTitle = titles.map((t) => own.find((d) => d.title === t)).find((d) => d !== undefined);
  if (byTitle) return byTitle;
  const byKey = await getIn(ctx, SERVICE, id);
  return ok(byKey) && isDoc(byKey.json) ? byKey.json : undefined;
}

/** Every object of a deletable type whose title carries the run tag, so whatever an install put there is removed. */
export async function sweep(ctx: OpsContext, track: Track): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const type of new Set(Object.values(GROUP_TYPES))) {
    const ex = await ctx.http.send('coreList', { params: { object_type: type }, query: { filter: ownFilter(ctx) } });
    const keys = docs(ex.json)
      .filter((d) => String(d.title ?? '').startsWith(`${ctx.options.runTag} `))
      .map((d) => String(d._key));
    for (const k of keys) track(type, k);
    if (keys.length) found[type] = keys;
  }
  return found;
}

type Prior = 'absent' | 'installed' | 'changed';
type Resolution = 'skip' | 'overwrite' | 'unset';
const PRIORS: Prior[] = ['absent', 'installed', 'changed'];
const RESOLUTIONS: Resolution[] = ['unset', 'skip', 'overwrite'];
const COMBOS = PRIORS.flatMap((prior) => RESOLUTIONS.map((resolution) => ({ prior, resolution })));

export const installResolution: OpsCheck = {
  id: 'ops.content-packs.install-resolution',
  title:
    'Install MUST install an object not yet installed; with resolution=skip it MUST leave an installed object as it is, with overwrite it MUST replace it discarding changes; without resolution an installed object it does not install again MUST be reported in failure inside a normal result (type OBJECT_ALREADY_EXISTS as seen, SHOULD)',
  requirements: [
    'OPS-CP-INSTALL',
    'OPS-CP-INSTALL-RESOLUTION',
    'OPS-CP-INSTALL-RESULT',
    'OPS-CP-INSTALL-PREFIX',
    'OPS-ERR-CP-INSTALL-FAILURES',
    'OPS-CP-INSTALL-FAILURE-TYPE',
  ],
  shares: ['content-packs'],
  destructive: true,
  async run(ctx) {
    const found = need(
      (await candidates(ctx)).find((c) => c.free.length > 0),
      'no content pack has a service that is not installed yet',
    );
    const { pack } = found;
    const x = found.free[0];
    const tag = ctx.options.runTag;
    // One prefix for both installs: a server may add the prefix to the installed object's key as well as its title
    // ("prefix added to each installed object"), and then a second prefix would name another object, never the
    // installed one. Which install left the object is told by the change the 'changed' cases make.
    const [p1, changed] = [`${tag} `, `${tag} changed ${x.title}`];
    const p2 = p1;
    const titles = [p1 + x.title, changed];
    const track = tracker(ctx);
    const notes = new Set<string>();
    /** Failure types reported for an object that was already installed, with no resolution given. */
    const conflictTypes = new Set<string>();

    /** What the last case left, as read at its end: the next case starts by deleting it. */
    let last: Doc | undefined;
    const reset = async () => {
      let there = last ?? (await findService(ctx, x.id, titles));
      for (let i = 0; i < 3 && there; i++) {
        await deleteIn(ctx, SERVICE, String(there._key));
        there = await findService(ctx, x.id, titles);
      }
      last = undefined;
      if (there) throw new Violation(`the installed service ${x.id} could not be deleted between cases`, 'OPS-CP-INSTALL');
    };

    const step = async (prior: Prior, resolution: Resolution) => {
      await reset();
      let before: Doc | undefined;
      if (prior !== 'absent') {
        const first = await install(ctx, pack, only(x.id, { prefix: p1 }));
        before = await findService(ctx, x.id, [p1 + x.title]);
        track('service', before?._key);
        if (!ok(first) || !before)
          throw new Violation(
            `installing ${x.id} of ${pack.id} answered ${shown(first)}, and ${before ? 'the service exists' : `no service ${x.id} titled "${p1}${x.title}" exists`}`,
            'OPS-CP-INSTALL',
            first,
          );
        if (prior === 'changed') {
          const upd = await updateIn(ctx, SERVICE, String(before._key), { title: changed, cf_marker: tag }, 1);
          if (!ok(upd)) throw new Violation(`could not change the installed service (${shown(upd)})`, 'OPS-CP-INSTALL-RESOLUTION', upd);
          // As read back: a partial update may leave out cf_marker, a field outside the schema (OPS-PARTIAL-NEW-FIELDS).
          const reread = await getIn(ctx, SERVICE, String(before._key));
          before = isDoc(reread.json) ? reread.json : { ...before, title: changed, cf_marker: tag };
          if (before.title !== changed)
            throw new Violation(
              `the installed service, changed to the title ${JSON.stringify(changed)}, reads ${shown(reread)}`,
              'OPS-CP-INSTALL-RESOLUTION',
              reread,
            );
        }
      }
      const body = only(x.id, { prefix: p2, ...(resolution === 'unset' ? {} : { resolution }) });
      const ex = await install(ctx, pack, body);
      const label = `with ${x.id} ${prior === 'absent' ? 'not installed' : prior === 'installed' ? 'installed' : 'installed and changed'}, install ${JSON.stringify(body)}`;
      if (!ok(ex))
        throw new Violation(`${label} answered ${shown(ex)}`, prior === 'absent' ? 'OPS-CP-INSTALL' : 'OPS-ERR-CP-INSTALL-FAILURES', ex, {
          expected: 'a success',
          actual: shown(ex),
        });
      const bad = resultProblems(ex);
      if (bad.length)
        throw new Violation(`${label}: ${bad.join('; ')}`, 'OPS-CP-INSTALL-RESULT', ex, {
          expected: 'success and failure as the document gives them',
          actual: bad.join('; '),
        });
      const listed = successIds(ex).includes(x.id);
      const failed = failuresFor(ex, x.id);
      const after = await findService(ctx, x.id, titles);
      track('service', after?._key);
      last = after;
      const kept = !!before && after?.title === before.title && after?.cf_marker === before.cf_marker;
      const replaced = after?.title === p2 + x.title && after?.cf_marker === undefined;
      const now = after
        ? `the service is titled ${JSON.stringify(after.title)}${after.cf_marker ? ' and keeps cf_marker' : ' without cf_marker'}`
        : 'the service is not there';
      if (prior === 'absent') {
        if (!after) throw new Violation(`${label}: ${now}`, 'OPS-CP-INSTALL', ex, { expected: `service ${x.id} installed`, actual: now });
        if (after.title !== p2 + x.title)
          throw new Violation(`${label}: ${now}, not "${p2}${x.title}"`, 'OPS-CP-INSTALL-PREFIX', ex, {
            expected: `title ${JSON.stringify(p2 + x.title)}`,
            actual: `title ${JSON.stringify(after.title)}`,
          });
        if (!listed)
          throw new Violation(
            `${label}: the service was installed but success does not list ${x.id}: ${JSON.stringify(member(ex, 'success')).slice(0, 200)}`,
            'OPS-CP-INSTALL-RESULT',
            ex,
            {
              expected: `success listing ${x.id}`,
              actual: compact(member(ex, 'success')),
            },
          );
      } else if (resolution === 'skip') {
        // Skipping is what skip asks for, not a failure: a failure entry is allowed, not required.
        if (listed || !kept)
          throw new Violation(
            `${label}: ${listed ? 'success lists it and ' : ''}${now}, skip installs only objects not already installed`,
            'OPS-CP-INSTALL-RESOLUTION',
            ex,
            {
              expected: `not in success; the service left titled ${JSON.stringify(before?.title)}`,
              actual: `${listed ? 'in success' : 'not in success'}; ${now}`,
            },
          );
        notes.add(
          `with skip an installed object is ${failed.length ? `reported in failure as ${JSON.stringify(failed[0].type)}` : 'left out of success and failure'}`,
        );
      } else if (resolution === 'overwrite') {
        if (!listed || !replaced)
          throw new Violation(
            `${label}: ${listed ? '' : 'success does not list it and '}${now}, overwrite replaces it with "${p2}${x.title}" and discards changes`,
            'OPS-CP-INSTALL-RESOLUTION',
            ex,
            {
              expected: `in success; the service titled ${JSON.stringify(p2 + x.title)} without the change`,
              actual: `${listed ? 'in success' : 'not in success'}; ${now}`,
            },
          );
      } else if (listed) {
        notes.add(`without resolution an installed object is installed again: ${now}`);
      } else {
        // Named in content and not installed: a per-object failure, which the document says is reported inside the result.
        if (!failed.length)
          throw new Violation(
            `${label}: the object is neither installed again (success) nor reported in failure: ${compact(ex.json)}`,
            'OPS-ERR-CP-INSTALL-FAILURES',
            ex,
            {
              expected: `${x.id} in success or in failure`,
              actual: compact(ex.json),
            },
          );
        if (!kept)
          throw new Violation(`${label}: the conflict is reported in failure, yet ${now}`, 'OPS-ERR-CP-INSTALL-FAILURES', ex, {
            expected: `the service left titled ${JSON.stringify(before?.title)}${before?.cf_marker ? ' with cf_marker' : ''}`,
            actual: now,
          });
        conflictTypes.add(String(failed[0].type));
      }
    };

    // Every prior state meets every resolution in each run, in a random order.
    const property = fc.asyncProperty(fc.shuffledSubarray(COMBOS, { minLength: COMBOS.length }), async (combos) => {
      for (const c of combos) await step(c.prior, c.resolution);
    });
    const held = await checkProperty(
      ctx,
      ['OPS-CP-INSTALL', 'OPS-CP-INSTALL-RESOLUTION', 'OPS-CP-INSTALL-RESULT', 'OPS-CP-INSTALL-PREFIX', 'OPS-ERR-CP-INSTALL-FAILURES'],
      `install resolution over prior states of ${pack.id} ${x.id}`,
      property,
      { runs: 1 },
    );
    await reset().catch(() => undefined);
    for (const n of notes) ctx.observe('OPS-ERR-CP-INSTALL-FAILURES', n);
    const types = [...conflictTypes];
    if (types.length)
      ctx.expect.equal(
        'OPS-CP-INSTALL-FAILURE-TYPE',
        'failure types reported for an installed object installed again without resolution',
        types,
        ['OBJECT_ALREADY_EXISTS'],
      );
    else if (held)
      ctx.untested('OPS-CP-INSTALL-FAILURE-TYPE', 'without resolution the installed object was installed again, never reported in failure');
  },
};

type Flag = 'unset' | 'on' | 'off';
const FLAGS: Flag[] = ['unset', 'on', 'off'];
const flagValue = (f: Flag, numeric: boolean) => (f === 'unset' ? undefined : numeric ? (f === 'on' ? 1 : 0) : f === 'on');

/** `backfill_enabled` wherever the installed service shows it: on the service or on its KPIs. */
const backfillFlags = (d: Doc): unknown[] =>
  [d.backfill_enabled, ...docs(d.kpis).map((k) => k.backfill_enabled)].filter((v) => v !== undefined);

/**
 * The pack as read before the check installs it: installed_versions is an array then too. Whether it is empty is
 * recorded only: a pack installed before the run (by a person, or by an earlier run whose objects were deleted since)
 * is installed, and a client cannot tell it from one never installed.
 */
async function versionsBefore(ctx: OpsContext, pack: Doc): Promise<void> {
  const before = await ctx.http.send('contentPackGet', { params: packParams(pack) });
  if (!ok(before)) return;
  const versions = isDoc(before.json) ? before.json.installed_versions : undefined;
  ctx.expect.that(
    'OPS-CP-INSTALLED-VERSIONS-ARRAY',
    `installed_versions of ${pack.id} before the check installs it`,
    Array.isArray(versions),
    { expected: 'an array', actual: compact(versions) },
    before,
  );
  ctx.observe(
    'OPS-CP-INSTALLED-VERSIONS',
    `before the check installs ${pack.id} ${pack.version}, installed_versions reads ${compact(versions)}`,
  );
}

export const installOptions: OpsCheck = {
  id: 'ops.content-packs.install-options',
  title:
    'Install MUST accept any subset of its optional parameters, install services enabled only with enabled=1, backfill unless backfill is false, and add the prefix (none by default) to titles',
  requirements: [
    'OPS-CP-INSTALL-OPTIONAL',
    'OPS-CP-INSTALL-ENABLED',
    'OPS-CP-INSTALL-BACKFILL',
    'OPS-CP-INSTALL-PREFIX',
    'OPS-CP-INSTALL-RESULT',
    'OPS-CP-INSTALL-SAVED-SEARCHES',
    'OPS-CP-INSTALLED-VERSIONS',
    'OPS-CP-INSTALLED-VERSIONS-ARRAY',
    'OPS-CP-INSTALL-CONTENT',
  ],
  shares: ['content-packs'],
  destructive: true,
  async run(ctx) {
    const found = need(
      (await candidates(ctx)).find((c) => c.free.length > 0),
      'no content pack has a service that is not installed yet',
    );
    const { pack } = found;
    const x = found.free[0];
    await versionsBefore(ctx, pack);
    const prefix = `${ctx.options.runTag} `;
    const track = tracker(ctx);
    const backfillSeen: string[] = [];
    const stateUnseen: string[] = [];
    const dependencies = new Set<string>();
    let savedSeen = 0;

    /** What the last case left, as read at its end: the next case starts by deleting it. */
    let last: Doc | undefined;
    const reset = async () => {
      const there = last ?? (await findService(ctx, x.id, [prefix + x.title]));
      last = undefined;
      if (there) await deleteIn(ctx, SERVICE, String(there._key));
    };
    const checkSaved = (ex: Exchange, label: string) => {
      const bad = savedSearchProblems(ex);
      if (bad === undefined) return;
      savedSeen++;
      if (bad.length)
        throw new Violation(`${label}: saved_searches ${bad.join('; ')}`, 'OPS-CP-INSTALL-SAVED-SEARCHES', ex, {
          expected: 'saved_searches as {action_performed, success, failure}',
          actual: bad.join('; '),
        });
    };

    const cases = fc.tuple(
      fc.shuffledSubarray(
        FLAGS.flatMap((e) => FLAGS.map((b) => [e, b] as const)),
        { minLength: 9 },
      ),
      fc.boolean(),
    );
    // Both forms of a Boolean in every run: the form follows the combination (flipped by the seed), so that each of
    // 1, 0, true and false is sent for enabled and for backfill alike.
    const numericFor = (enabled: Flag, backfill: Flag, flip: boolean) =>
      ((FLAGS.indexOf(enabled) + FLAGS.indexOf(backfill)) % 2 === 0) !== flip;
    const property = fc.asyncProperty(cases, async ([combos, flip]) => {
      for (const [enabled, backfill] of combos) {
        await reset();
        const numeric = numericFor(enabled, backfill, flip);
        const body = only(x.id, { prefix, enabled: flagValue(enabled, numeric), backfill: flagValue(backfill, numeric) });
        const label = `install ${JSON.stringify(body)}`;
        const ex = await install(ctx, pack, body);
        const after = await findService(ctx, x.id, [prefix + x.title]);
        track('service', after?._key);
        last = after;
        if (!ok(ex) || !after)
          throw new Violation(`${label} answered ${shown(ex)}${after ? '' : ' and installed no service'}`, 'OPS-CP-INSTALL-OPTIONAL', ex, {
            expected: `a success installing ${x.id}`,
            actual: `${shown(ex)}${after ? '' : ', no service installed'}`,
          });
        const bad = resultProblems(ex);
        if (bad.length)
          throw new Violation(`${label}: ${bad.join('; ')}`, 'OPS-CP-INSTALL-RESULT', ex, {
            expected: 'success and failure as the document gives them',
            actual: bad.join('; '),
          });
        const others = successIds(ex).filter((id) => id !== x.id);
        if (others.length && x.dependent) dependencies.add(others.join(', '));
        else if (others.length)
          throw new Violation(
            `${label} reported ${others.join(', ')} installed too, which content did not name`,
            'OPS-CP-INSTALL-CONTENT',
            ex,
            {
              expected: `${x.id} alone in success`,
              actual: compact(successIds(ex)),
            },
          );
        checkSaved(ex, label);
        if (after.title !== prefix + x.title)
          throw new Violation(`${label} installed the service as ${JSON.stringify(after.title)}`, 'OPS-CP-INSTALL-PREFIX', ex, {
            expected: `title ${JSON.stringify(prefix + x.title)}`,
            actual: `title ${JSON.stringify(after.title)}`,
          });
        const state = enabledOf(after);
        if (state === undefined) stateUnseen.push(`${label}: the installed service shows neither enabled nor disabled`);
        else if (state !== (enabled === 'on'))
          throw new Violation(
            `${label} installed the service with enabled=${JSON.stringify(after.enabled)}, disabled=${JSON.stringify(after.disabled)}`,
            'OPS-CP-INSTALL-ENABLED',
            ex,
            {
              expected: enabled === 'on' ? 'enabled' : 'not enabled',
              actual: state ? 'enabled' : 'not enabled',
            },
          );
        // The document names no field that shows backfill: what a server reports is recorded, never judged.
        const flags = backfillFlags(after);
        if (flags.length) backfillSeen.push(`backfill ${backfill}: backfill_enabled ${JSON.stringify(flags)}`);
      }
    });
    const held = await checkProperty(
      ctx,
      ['OPS-CP-INSTALL-OPTIONAL', 'OPS-CP-INSTALL-ENABLED', 'OPS-CP-INSTALL-PREFIX', 'OPS-CP-INSTALL-RESULT', 'OPS-CP-INSTALL-CONTENT'],
      `install options of ${pack.id} ${x.id}`,
      property,
      { runs: 1 },
    );
    if (dependencies.size) {
      ctx.observe(
        'OPS-CP-INSTALL-CONTENT',
        `installing ${x.id}, which its preview does not say is free of dependencies, also installed ${[...dependencies].join('; ')}`,
      );
      await sweep(ctx, track);
    }
    if (held) {
      ctx.untested(
        'OPS-CP-INSTALL-BACKFILL',
        'the document names no field that shows whether KPI data was backfilled: installs with backfill true, false, 1, 0 and unset were accepted',
      );
      for (const seen of new Set(backfillSeen)) ctx.observe('OPS-CP-INSTALL-BACKFILL', seen);
      for (const seen of new Set(stateUnseen)) ctx.observe('OPS-CP-INSTALL-ENABLED', seen);
    }
    // The property judged every result that carried saved_searches; it held.
    if (held && savedSeen)
      ctx.expect.that('OPS-CP-INSTALL-SAVED-SEARCHES', 'saved_searches of the install results', true, {
        expected: '{action_performed, success, failure} as the schema gives them',
        actual: `so in each of ${savedSeen} results`,
      });
    else if (held) ctx.untested('OPS-CP-INSTALL-SAVED-SEARCHES', 'no install result carried saved_searches');

    // The default prefix: no prefix sent, so this one object carries no run tag for a moment: it is deleted at once.
    await reset();
    const namesake = async () =>
      docs((await listIn(ctx, SERVICE, { filter: JSON.stringify({ title: x.title }) })).json).filter((d) => d.title === x.title);
    const earlier = new Set((await namesake()).map((d) => String(d._key)));
    const bare = await install(ctx, pack, only(x.id));
    const plain = (await findService(ctx, x.id, [])) ?? (await namesake()).find((d) => !earlier.has(String(d._key)));
    if (plain) {
      track('service', plain._key);
      await deleteIn(ctx, SERVICE, String(plain._key));
    }
    ctx.expect.status('OPS-CP-INSTALL-OPTIONAL', 'install with content only', bare, '2xx');
    if (plain)
      ctx.expect.equal(
        'OPS-CP-INSTALL-PREFIX',
        `title of ${x.id} installed without prefix, against the pack's`,
        plain.title,
        x.title,
        bare,
      );
    else
      ctx.untested(
        'OPS-CP-INSTALL-PREFIX',
        `without prefix no new service was found under the key ${x.id} or the title ${JSON.stringify(x.title)}`,
        bare,
      );

    const read = await ctx.http.send('contentPackGet', { params: packParams(pack) });
    const versions = isDoc(read.json) ? read.json.installed_versions : undefined;
    if (ok(read))
      ctx.expect.that(
        'OPS-CP-INSTALLED-VERSIONS-ARRAY',
        `installed_versions of ${pack.id} after installing ${pack.version}`,
        Array.isArray(versions),
        { expected: 'an array', actual: compact(versions) },
        read,
      );
    ctx.expect.that(
      'OPS-CP-INSTALLED-VERSIONS',
      `installed_versions of ${pack.id} after installing ${pack.version}`,
      Array.isArray(versions) && versions.length > 0,
      { expected: 'a non-empty array', actual: compact(versions) },
      read,
    );
    if (Array.isArray(versions))
      ctx.observe(
        'OPS-CP-INSTALLED-VERSIONS',
        `after an install of ${pack.version}, installed_versions ${versions.includes(pack.version) ? 'holds' : 'does not hold'} that version`,
      );
  },
};

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
