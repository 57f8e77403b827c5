import fc from 'fast-check';
import type { Check, CheckContext } from '../../core/check';
import { checkProperty, Violation } from '../../core/property';
import { word } from '../arbitraries/values';
import { ENTITY, MAINTENANCE, SERVICE, TEAM, type Collection } from '../collections';
import { expectReplaced, serverFields } from '../ownership';
import { assertWholeCount, countIn, countOf, createIn, deleteIn, getIn, keyOf, keys, listIn, ok, ownFilter, removeIn, rows, same, tagged, updateIn, type Doc } from '../support';

const FAR = Math.floor(Date.now() / 1000) + 86400 * 3650;
const KINDS = ['service', 'entity'];

/** Type problems of the fields the document lists for a window; a field that is absent is not judged. */
function windowFieldProblems(d: Doc): string[] {
  const bad: string[] = [];
  if (typeof d.title !== 'string') bad.push(`title is ${JSON.stringify(d.title)}`);
  for (const f of ['start_time', 'end_time']) if (d[f] !== undefined && typeof d[f] !== 'number') bad.push(`${f} is ${JSON.stringify(d[f])}`);
  if (d._owner !== undefined && typeof d._owner !== 'string') bad.push(`_owner is ${JSON.stringify(d._owner)}`);
  if (d.sec_grp_list !== undefined && !(Array.isArray(d.sec_grp_list) && d.sec_grp_list.every((g) => typeof g === 'string'))) bad.push(`sec_grp_list is ${JSON.stringify(d.sec_grp_list)}`);
  return bad;
}

/** The documented part of each entry, in a fixed order: a server may add more (a title, say) or reorder them. */
const refs = (objects: unknown) =>
  Array.isArray(objects) ? objects.map((o: Doc) => ({ object_type: o?.object_type, _key: o?._key })).sort((a, b) => `${a.object_type}/${a._key}`.localeCompare(`${b.object_type}/${b._key}`)) : objects;
const badObjects = (d: Doc) => !Array.isArray(d.objects) || d.objects.some((o: Doc) => !o || typeof o._key !== 'string' || !KINDS.includes(String(o.object_type)));

/**
 * A service and an entity of the run's own, for windows to point at: every window the suite writes names at least one
 * of them, with its start and end times, as a real window does (what a server does with other input is not shown).
 */
async function targets(ctx: CheckContext): Promise<Doc[] | undefined> {
  const [svc, ent] = await Promise.all([createIn(ctx, SERVICE, 'mw target service'), createIn(ctx, ENTITY, 'mw target entity')]);
  return svc.key && ent.key ? [{ object_type: 'service', _key: svc.key }, { object_type: 'entity', _key: ent.key }] : undefined;
}

/** The fields of a complete window of the run's own, naming one service it created; undefined when that fails. */
async function completeWindow(ctx: CheckContext): Promise<Doc | undefined> {
  const svc = await createIn(ctx, SERVICE, 'mw target service');
  return svc.key ? { ...MAINTENANCE.template(), objects: [{ object_type: 'service', _key: svc.key }] } : undefined;
}

const windowShape = (objects: Doc[]) =>
  fc.record({
    start: fc.integer({ min: 0, max: 86400 * 30 }),
    startFraction: fc.constantFrom(0, 0.25, 0.5),
    length: fc.integer({ min: 60, max: 86400 }),
    endFraction: fc.constantFrom(0, 0.5, 0.75),
    objects: fc.subarray(objects, { minLength: 1 }),
    comment: word,
  });

const supportedTypes: Check = {
  id: 'ops.maintenance.supported-types',
  title: 'maintenance_services_interface/get_supported_object_types MUST answer an array of strings containing maintenance_calendar',
  requirements: ['OPS-MW-SUPPORTED-TYPES'],
  shares: ['maintenance'],
  async run(ctx) {
    const ex = await ctx.http.send('mwSupportedObjectTypes');
    const types = Array.isArray(ex.json) ? (ex.json as unknown[]) : undefined;
    const good = ok(ex) && !!types && types.every((t) => typeof t === 'string') && types.includes('maintenance_calendar');
    ctx.assert('OPS-MW-SUPPORTED-TYPES', good, `get_supported_object_types answered ${ex.status} ${ex.text.slice(0, 120)}`, ex);
  },
};

const roundTrip: Check = {
  id: 'ops.maintenance.round-trip',
  title: 'A maintenance window created with POST MUST answer {_key} and read back (by key and in the list) with its title, epoch-second (fractional) times and objects, as object_type maintenance_calendar',
  requirements: ['OPS-MW-CREATE', 'OPS-MW-GET', 'OPS-MW-LIST', 'OPS-MW-OBJECT-TYPE', 'OPS-MW-OBJECTS', 'OPS-MW-FIELDS'],
  shares: ['maintenance'],
  async run(ctx) {
    const objects = await targets(ctx);
    if (!objects) return ctx.untested('OPS-MW-CREATE', 'could not create a service and an entity for the windows to name');
    let n = 0;
    const property = fc.asyncProperty(windowShape(objects), async (w) => {
      const start_time = FAR + w.start + w.startFraction;
      const body = { start_time, end_time: start_time + w.length + w.endFraction, objects: w.objects, comment: w.comment };
      const made = await createIn(ctx, MAINTENANCE, `mw round trip ${n++}`, body);
      try {
        if (!ok(made.ex) || !made.key) throw new Violation(`POST maintenance_calendar answered ${made.ex.status} ${made.ex.text.slice(0, 100)} without a string _key`, 'OPS-MW-CREATE', made.ex);
        const got = await getIn(ctx, MAINTENANCE, made.key);
        const d = (got.json ?? {}) as Doc;
        if (!ok(got) || d._key !== made.key) throw new Violation(`GET maintenance_calendar/${made.key} answered ${got.status} with _key ${JSON.stringify(d._key)}`, 'OPS-MW-GET', got);
        if (d.object_type !== 'maintenance_calendar') throw new Violation(`the window reads object_type ${JSON.stringify(d.object_type)}`, 'OPS-MW-OBJECT-TYPE', got);
        if (badObjects(d)) throw new Violation(`the window reads objects ${JSON.stringify(d.objects)}`, 'OPS-MW-OBJECTS', got);
        const sent = { title: made.body.title, start_time: body.start_time, end_time: body.end_time, objects: refs(body.objects) };
        const read = { title: d.title, start_time: d.start_time, end_time: d.end_time, objects: refs(d.objects) };
        if (!same(read, sent)) throw new Violation(`the window was written as ${JSON.stringify(sent)} and reads ${JSON.stringify(read)}`, 'OPS-MW-CREATE', got);
        const problems = windowFieldProblems(d);
        if (problems.length) throw new Violation(`the window's fields have other types than the document lists: ${problems.join('; ')}`, 'OPS-MW-FIELDS', got);
        const list = await listIn(ctx, MAINTENANCE, { filter: ownFilter(ctx) });
        const row = rows(list).find((r) => r._key === made.key);
        if (!ok(list) || !row) throw new Violation(`the list of the run's windows (${list.status}) does not hold ${made.key}`, 'OPS-MW-LIST', list);
        if (row.object_type !== 'maintenance_calendar') throw new Violation(`the listed window has object_type ${JSON.stringify(row.object_type)}`, 'OPS-MW-OBJECT-TYPE', list);
        if (!same(refs(row.objects), refs(body.objects))) throw new Violation(`the listed window has objects ${JSON.stringify(row.objects)}, written ${JSON.stringify(body.objects)}`, 'OPS-MW-LIST', list);
      } finally {
        await removeIn(ctx, MAINTENANCE, made);
      }
    });
    await checkProperty(ctx, ['OPS-MW-CREATE', 'OPS-MW-GET', 'OPS-MW-LIST', 'OPS-MW-OBJECT-TYPE', 'OPS-MW-OBJECTS', 'OPS-MW-FIELDS'], 'maintenance window round trip', property, { runs: Math.ceil(ctx.options.runs / 2) });
  },
};

const update: Check = {
  id: 'ops.maintenance.update',
  title: 'POST maintenance_calendar/<_key> MUST answer {_key}: with is_partial_data=1 only the sent fields change, with 0 the window is replaced',
  requirements: ['OPS-MW-UPDATE'],
  shares: ['maintenance'],
  async run(ctx) {
    const objects = await targets(ctx);
    if (!objects) return ctx.untested('OPS-MW-UPDATE', 'could not create a service and an entity for the window to name');
    const start = FAR + 7200;
    const made = await createIn(ctx, MAINTENANCE, 'mw update', { start_time: start, end_time: start + 600, objects: objects.slice(0, 1), comment: 'kept' });
    if (!made.key) return ctx.untested('OPS-MW-UPDATE', `could not create a window (${made.ex.status})`);
    const partial = await updateIn(ctx, MAINTENANCE, made.key, { end_time: start + 3600.5 }, 1);
    ctx.assert('OPS-MW-UPDATE', ok(partial) && keyOf(partial) === made.key, `a partial update answered ${partial.status} with _key ${JSON.stringify(keyOf(partial))}`, partial);
    const merged = (await getIn(ctx, MAINTENANCE, made.key)).json as Doc;
    const mergedOk = merged?.end_time === start + 3600.5 && merged?.start_time === start && merged?.comment === 'kept' && merged?.title === made.body.title && same(refs(merged?.objects), refs(made.body.objects));
    ctx.assert('OPS-MW-UPDATE', mergedOk, `after is_partial_data=1 with end_time only, the window reads ${JSON.stringify({ title: merged?.title, start_time: merged?.start_time, end_time: merged?.end_time, objects: merged?.objects, comment: merged?.comment })}`);
    const title = tagged(ctx, 'mw update replaced');
    // A full update is a whole window: title, both times and the objects (now the entity instead of the service).
    const full = await updateIn(ctx, MAINTENANCE, made.key, { title, start_time: start, end_time: start + 60, objects: objects.slice(1) }, 0);
    ctx.assert('OPS-MW-UPDATE', ok(full) && keyOf(full) === made.key, `a full update answered ${full.status} with _key ${JSON.stringify(keyOf(full))}`, full);
    const got = await getIn(ctx, MAINTENANCE, made.key);
    const replaced = (got.json ?? {}) as Doc;
    const owned = await serverFields(ctx, MAINTENANCE);
    try {
      // objects are compared as a set of references: a server may add fields of its own to each entry.
      const { objects: _sent, ...earlier } = made.body;
      expectReplaced(earlier, { title, start_time: start, end_time: start + 60 }, got, owned, 'OPS-MW-UPDATE');
      const objectsOk = same(refs(replaced.objects), refs(objects.slice(1)));
      ctx.assert('OPS-MW-UPDATE', objectsOk, objectsOk ? 'a full update replaced the window' : `after is_partial_data=0 the window names ${JSON.stringify(replaced.objects)}, sent ${JSON.stringify(objects.slice(1))}`, got);
    } catch (e) {
      if (!(e instanceof Violation)) throw e;
      ctx.assert('OPS-MW-UPDATE', false, `after is_partial_data=0: ${e.message}`, got);
    }
  },
};

const deleteAndCount: Check = {
  id: 'ops.maintenance.delete-and-count',
  title: 'DELETE maintenance_calendar/<_key> MUST remove only that window, and count MUST follow: the filtered count, and the whole count equal to the list',
  requirements: ['OPS-MW-DELETE', 'OPS-MW-COUNT'],
  shares: ['maintenance'],
  async run(ctx) {
    const whole = await completeWindow(ctx);
    if (!whole) return ctx.untested('OPS-MW-DELETE', 'could not create a service for the windows to name');
    const made = await Promise.all(['a', 'b', 'c'].map((n) => createIn(ctx, MAINTENANCE, `mw delete ${n}`, whole)));
    const ks = made.map((m) => m.key).filter((k): k is string => Boolean(k));
    if (ks.length < 3) return ctx.untested('OPS-MW-DELETE', 'could not create three windows');
    const own = await countIn(ctx, MAINTENANCE, { filter: ownFilter(ctx) });
    ctx.assert('OPS-MW-COUNT', ok(own) && countOf(own) === 3, `count of the run's windows is ${own.status} ${own.text.slice(0, 60)} with three created`, own);
    // Without a filter every readable window counts, and other checks may be writing: compare count and list at rest.
    await assertWholeCount(ctx, MAINTENANCE, 'OPS-MW-COUNT', 'windows');
    const del = await deleteIn(ctx, MAINTENANCE, ks[1]);
    ctx.assert('OPS-MW-DELETE', ok(del), `DELETE maintenance_calendar/${ks[1]} answered ${del.status}`, del);
    const gone = await getIn(ctx, MAINTENANCE, ks[1]);
    ctx.assert('OPS-MW-DELETE', !ok(gone), `GET of the deleted window answered ${gone.status}`, gone);
    const left = keys(rows(await listIn(ctx, MAINTENANCE, { filter: ownFilter(ctx) })));
    ctx.assert('OPS-MW-DELETE', left.includes(ks[0]) && left.includes(ks[2]) && !left.includes(ks[1]), `after deleting ${ks[1]} the run's windows are ${JSON.stringify(left)}`);
    const after = await countIn(ctx, MAINTENANCE, { filter: ownFilter(ctx) });
    ctx.assert('OPS-MW-COUNT', countOf(after) === 2, `after one delete the count of the run's windows is ${countOf(after)}`, after);
  },
};

/**
 * Counts against the read-only caller: one object in the default group and one in a team the run makes, so a count
 * that ignores access has something to over-count. The run-tag filter keeps everyone else's objects out of it.
 */
export function readableCountCheck(c: Collection, id: string, countReq: string, complete: (ctx: CheckContext) => Promise<Doc | undefined> = async () => ({})): Check {
  return {
    id,
    title: `Counts of ${c.type} MUST reflect the caller's access: the read-only caller's count equals its own list, never more than the administrator's`,
    requirements: ['OPS-AUTH-COUNTS', countReq],
    needs: ['readonly'],
    async run(ctx) {
      const team = await createIn(ctx, TEAM, `${c.type} restricted team`);
      const fields = await complete(ctx);
      if (!team.key || !fields) return ctx.untested('OPS-AUTH-COUNTS', `could not create a team (${team.ex.status}) and what the ${c.type} objects name`);
      const open = await createIn(ctx, c, `${c.type} readable`, fields);
      const closed = await createIn(ctx, c, `${c.type} team only`, { ...fields, sec_grp: team.key, sec_grp_list: [team.key] });
      if (!open.key || !closed.key) return ctx.untested('OPS-AUTH-COUNTS', `could not create the ${c.type} objects`);
      const filter = ownFilter(ctx);
      const admin = await countIn(ctx, c, { filter });
      ctx.assert(countReq, countOf(admin) === 2, `the administrator counts ${countOf(admin)} of the run's two ${c.type} objects`, admin);
      const seen = keys(rows(await listIn(ctx, c, { filter }, { as: 'readonly' })));
      const count = await countIn(ctx, c, { filter }, { as: 'readonly' });
      ctx.assert('OPS-AUTH-COUNTS', ok(count) && countOf(count) === seen.length && seen.length <= (countOf(admin) ?? 0), `the read-only caller counts ${countOf(count)} of the run's ${c.type} objects and lists ${seen.length} (${seen.join(', ') || 'none'})`, count);
      ctx.observe('OPS-AUTH-COUNTS', `${c.type}: the read-only caller ${seen.includes(closed.key) ? 'sees' : 'does not see'} the object in a team of the run, and ${seen.includes(open.key) ? 'sees' : 'does not see'} the one in the default group`);
    },
  };
}

export const maintenanceChecks: Check[] = [supportedTypes, roundTrip, update, deleteAndCount, readableCountCheck(MAINTENANCE, 'ops.maintenance.counts-readable', 'OPS-MW-COUNT', completeWindow)];
