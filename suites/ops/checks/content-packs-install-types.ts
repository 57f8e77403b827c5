import { compact } from '../../core/expect';
import { isDoc } from '../../core/json';
import { need } from '../../core/precondition';
import type { Exchange } from '../../core/types';
import { deleteIn, getIn, listIn, ok, rows, type Doc, type OpsCheck, type OpsContext } from '../support';
import { core } from '../collections';
import { docs, enabledOf, failuresFor, listPacks, packsOf, previewOf, shown, str, successIds } from './content-packs-support';
import { emList, emPath } from './events';
import { GROUP_TYPES, install, resultProblems, sweep, tracker } from './content-packs-install';

interface Pick {
  pack: Doc;
  group: string;
  type: string;
  id: string;
  title: string;
}

/** An install of the one object `x`: content keyed by its type, or by its preview group where a server reads it so. */
const installPick = (ctx: OpsContext, x: Pick, body: Doc) =>
  install(ctx, x.pack, { content: { [x.type]: [x.id] }, ...body }, { [x.type]: x.group });

/**
 * The first object of each deletable group (services apart, which the other install checks use) that the run may
 * install and remove again: the preview says it is not installed, nothing bars it (no missing entitlement, no
 * dependency, which could make a correct server report it in failure) and nothing is stored under its identifier.
 */
async function picks(ctx: OpsContext): Promise<Pick[]> {
  // Reads only, asked for together: each pack's preview, then whether anything is stored under each identifier.
  const packs = packsOf(await listPacks(ctx)).filter((p) => str(p.id) && str(p.version));
  const perPack = await Promise.all(packs.map((pack) => picksOf(ctx, pack)));
  // The first pack in the library's order that offers a group gives its pick.
  const found = new Map<string, Pick>();
  for (const x of perPack.flat()) if (!found.has(x.group)) found.set(x.group, x);
  return [...found.values()];
}

/** Per group of one pack's preview, its first object free to install and remove again. */
async function picksOf(ctx: OpsContext, pack: Doc): Promise<Pick[]> {
  const preview = await previewOf(ctx, pack);
  if (!ok(preview) || !isDoc(preview.json)) return [];
  const groups = Object.entries(preview.json).flatMap(([group, entries]) => {
    const type = GROUP_TYPES[group];
    if (!type || type === 'service') return [];
    const free = docs(entries).filter(
      (e): e is Doc & { id: string; title: string } =>
        str(e.id) && str(e.title) && e.installed === false && e.entitlement_status !== false && e.has_dependency !== true,
    );
    return [{ group, type, free }];
  });
  const picked = await Promise.all(
    groups.map(async ({ group, type, free }) => {
      const stored = await Promise.all(free.map(async (e) => ok(await getIn(ctx, core(type), e.id))));
      const e = free.find((_, i) => !stored[i]);
      return e ? [{ pack, group, type, id: e.id, title: e.title }] : [];
    }),
  );
  return picked.flat();
}

/** Keys of the objects titled as the pack's object itself (no prefix), before an install. */
async function namesakes(ctx: OpsContext, x: Pick): Promise<Set<string>> {
  return new Set(docs((await listIn(ctx, core(x.type), { filter: JSON.stringify({ title: x.title }) })).json).map((d) => String(d._key)));
}

/**
 * The object an install left: under its title with the run's prefix, under the pack's identifier, or else a new
 * object under the pack's own title (an install that dropped the prefix, which the prefix checks judge).
 */
async function installed(
  ctx: OpsContext,
  x: Pick,
  swept: Record<string, string[]>,
  before: Set<string>,
  track: ReturnType<typeof tracker>,
): Promise<Doc | undefined> {
  const title = `${ctx.options.runTag} ${x.title}`;
  const byTitle = await listIn(ctx, core(x.type), { filter: JSON.stringify({ title }) });
  const row = docs(byTitle.json).find((d) => d.title === title && (swept[x.type] ?? []).includes(String(d._key)));
  if (row) return row;
  const byKey = await getIn(ctx, core(x.type), x.id);
  if (ok(byKey) && isDoc(byKey.json)) return byKey.json;
  const bare = docs((await listIn(ctx, core(x.type), { filter: JSON.stringify({ title: x.title }) })).json).find(
    (d) => d.title === x.title && !before.has(String(d._key)),
  );
  if (bare) track(x.type, bare._key);
  return bare;
}

export const installEachType: OpsCheck = {
  id: 'ops.content-packs.install-each-type',
  title:
    'Install with content naming one object of a type other than service (keyed by its object-type name) MUST install that object and report it in success; base searches MUST keep their original state whether enabled is 1 or unset; the preview SHOULD then say the object is installed, and not installed once it is deleted',
  requirements: ['OPS-CP-INSTALL', 'OPS-CP-INSTALL-CONTENT', 'OPS-CP-INSTALL-RESULT', 'OPS-CP-INSTALL-ENABLED', 'OPS-CP-PREVIEW-ENTRY'],
  shares: ['content-packs'],
  destructive: true,
  async run(ctx) {
    const found = await picks(ctx);
    need(found.length, 'no pack previews a free object of a type other than service that the core interface can delete');
    const track = tracker(ctx);
    const prefix = `${ctx.options.runTag} `;
    const installOne = async (x: Pick, extra: Doc): Promise<{ ex: Exchange; there: Doc | undefined }> => {
      const before = await namesakes(ctx, x);
      const ex = await installPick(ctx, x, { prefix, resolution: 'skip', ...extra });
      const there = await installed(ctx, x, await sweep(ctx, track), before, track);
      return { ex, there };
    };
    // Each type's object is another's to nothing: the installs go out side by side.
    await Promise.all(found.map((x) => installAndJudge(ctx, x, installOne)));
  },
};

/** `installed` of the pick's entry in its pack's preview, where the preview still lists it, against `want`. */
async function expectEntryInstalled(ctx: OpsContext, x: Pick, want: boolean, after: string): Promise<void> {
  const preview = await previewOf(ctx, x.pack);
  const entry = isDoc(preview.json) ? docs(preview.json[x.group]).find((e) => e.id === x.id) : undefined;
  if (entry)
    ctx.expect.equal(
      'OPS-CP-PREVIEW-ENTRY',
      `installed in the preview entry of ${x.id} after it was ${after}`,
      entry.installed,
      want,
      preview,
    );
}

type InstallOne = (x: Pick, extra: Doc) => Promise<{ ex: Exchange; there: Doc | undefined }>;

/** Installs one pick and judges the result, the preview entry, and a base search's state with and without enabled. */
async function installAndJudge(ctx: OpsContext, x: Pick, installOne: InstallOne): Promise<void> {
  const { ex, there } = await installOne(x, x.type === 'kpi_base_search' ? { enabled: 1 } : {});
  const label = `install of ${x.pack.id} with content {${x.type}: [${x.id}]} (group ${x.group})`;
  ctx.expect.status('OPS-CP-INSTALL', label, ex, '2xx');
  if (!ok(ex)) return;
  ctx.expect.equal('OPS-CP-INSTALL-RESULT', `${label}: problems of success and failure`, resultProblems(ex), [], ex);
  const failed = failuresFor(ex, x.id);
  ctx.expect.that(
    'OPS-CP-INSTALL-CONTENT',
    `${label}: the object is installed, listed in success and not in failure`,
    !!there && successIds(ex).includes(x.id) && failed.length === 0,
    {
      expected: `${x.id} installed and in success`,
      actual: `${there ? 'installed' : 'not installed'}; success ${compact(successIds(ex))}; failure ${compact(failed)}`,
    },
    ex,
  );
  // An object installed under the pack's identifier is what the preview entry's `installed` names: installed
  // once it is there, not installed once it is deleted again.
  if (there && there._key === x.id) {
    await expectEntryInstalled(ctx, x, true, 'installed');
    if (ok(await deleteIn(ctx, core(x.type), x.id))) await expectEntryInstalled(ctx, x, false, 'deleted');
  }
  if (x.type !== 'kpi_base_search' || !there) return;
  // "saved searches and base searches keep their original state": the same state with enabled=1 as without it.
  if (there._key !== x.id) await deleteIn(ctx, core(x.type), String(there._key));
  const again = await installOne(x, {});
  if (!ok(again.ex) || !again.there) {
    ctx.untested('OPS-CP-INSTALL-ENABLED', `the base search ${x.id} could not be installed a second time (${shown(again.ex)})`, again.ex);
    return;
  }
  ctx.expect.equal(
    'OPS-CP-INSTALL-ENABLED',
    `enabled of base search ${x.id} installed without enabled, against with enabled=1`,
    again.there.enabled,
    there.enabled,
    again.ex,
  );
}

/** Groups of event-management objects a pack may hold, by the object-type name the document's pack lists give them. */
const EVENT_GROUPS: Record<string, string> = {
  correlation_searches: 'correlation_search',
  aggregation_policies: 'notable_aggregation_policy',
  notable_aggregation_policies: 'notable_aggregation_policy',
};
/** The one of them the document shows a list for: `correlation_search` is a seen type of event_management_interface. */
const READABLE_EVENT_TYPE = 'correlation_search';

export const installEventObjects: OpsCheck = {
  id: 'ops.content-packs.install-event-objects',
  title:
    'Install with content naming one correlation search or aggregation policy MUST install it and report it in success; a correlation search MUST then be listed by the event-management interface, enabled with enabled=1 and disabled with enabled unset where it shows `enabled`',
  requirements: ['OPS-CP-INSTALL-CONTENT', 'OPS-CP-INSTALL-RESULT', 'OPS-CP-INSTALL-ENABLED'],
  shares: ['content-packs'],
  // This API may offer no way to remove what it installs here: a DELETE is tried, and what stays is reported.
  destructive: true,
  async run(ctx) {
    const found = new Map<string, Pick>();
    for (const pack of packsOf(await listPacks(ctx)).filter((p) => str(p.id) && str(p.version))) {
      const preview = await previewOf(ctx, pack);
      if (!ok(preview) || !isDoc(preview.json)) continue;
      for (const [group, entries] of Object.entries(preview.json)) {
        const type = EVENT_GROUPS[group];
        const e = docs(entries).find((d) => str(d.id) && str(d.title) && d.entitlement_status !== false && d.has_dependency !== true);
        if (type && e && !found.has(type)) found.set(type, { pack, group, type, id: String(e.id), title: String(e.title) });
      }
    }
    need(found.size, 'no pack previews a correlation search or an aggregation policy');
    const prefix = `${ctx.options.runTag} `;
    const left: string[] = [];
    // By the prefixed title, or else a new object under the pack's own title (an install that dropped the prefix).
    const titled = async (x: Pick, title: string) => [
      ...rows(await emList(ctx, x.type, { filter_data: JSON.stringify({ title }) })).filter((d) => d.title === title),
      ...rows(await emList(ctx, x.type)).filter((d) => d.title === title),
    ];
    const earlier = new Map<string, Set<string>>();
    const read = async (x: Pick) =>
      (await titled(x, prefix + x.title))[0] ?? (await titled(x, x.title)).find((d) => !earlier.get(x.id)?.has(String(d._key)));
    for (const x of found.values()) {
      const label = `install of ${x.pack.id} with content {${x.type}: [${x.id}]}`;
      if (x.type === READABLE_EVENT_TYPE) earlier.set(x.id, new Set((await titled(x, x.title)).map((d) => String(d._key))));
      const ex = await installPick(ctx, x, { prefix, resolution: 'overwrite', enabled: 1 });
      ctx.expect.status('OPS-CP-INSTALL-CONTENT', label, ex, '2xx');
      if (!ok(ex)) continue;
      ctx.expect.equal('OPS-CP-INSTALL-RESULT', `${label}: problems of success and failure`, resultProblems(ex), [], ex);
      const failed = failuresFor(ex, x.id);
      ctx.expect.that(
        'OPS-CP-INSTALL-CONTENT',
        `${label}: listed in success and not in failure`,
        successIds(ex).includes(x.id) && failed.length === 0,
        { expected: `${x.id} in success`, actual: `success ${compact(successIds(ex))}; failure ${compact(failed)}` },
        ex,
      );
      if (x.type !== READABLE_EVENT_TYPE) continue;
      const on = await read(x);
      if (
        !ctx.expect.that(
          'OPS-CP-INSTALL-CONTENT',
          `${label}: the correlation search listed afterwards`,
          on !== undefined,
          { expected: `titled "${prefix}${x.title}"`, actual: 'not listed' },
          ex,
        )
      )
        continue;
      const off = ok(await installPick(ctx, x, { prefix, resolution: 'overwrite' })) ? await read(x) : undefined;
      if (enabledOf(on) !== undefined && enabledOf(off) !== undefined)
        ctx.expect.equal(
          'OPS-CP-INSTALL-ENABLED',
          `enabled (or the inverse of disabled) of correlation search ${x.id} installed with enabled=1, then again with it unset`,
          [enabledOf(on), enabledOf(off)],
          [true, false],
        );
      else
        ctx.observe(
          'OPS-CP-INSTALL-ENABLED',
          `the installed correlation search shows no enabled or disabled field: ${compact(Object.keys(on ?? {}))}`,
        );
      const key = String((off ?? on)?._key);
      const del = await ctx.http.raw('DELETE', emPath(ctx, `${x.type}/${encodeURIComponent(key)}`));
      if (!ok(del)) left.push(`${x.type} ${key} (DELETE answered ${del.status})`);
    }
    if (left.length)
      ctx.observe('OPS-CP-INSTALL-CONTENT', `left in place, as this API offers no documented delete for them: ${left.join(', ')}`);
  },
};
