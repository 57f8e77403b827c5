import fc from 'fast-check';
import { compact, factsOf } from '../../core/expect';
import { asDoc } from '../../core/json';
import { checkProperty, Violation } from '../../core/property';
import type { Exchange } from '../../core/types';
import { word } from '../arbitraries/values';
import { ENTITY, MAINTENANCE, SERVICE, statesOf, TEAM, type Collection } from '../collections';
import { expectReplaced, serverFields } from '../ownership';
import { deleteOneOfThree } from '../delete-one';
import {
  allNeeded,
  assertWholeCount,
  countIn,
  countOf,
  createIn,
  createNeeded,
  getIn,
  keyOf,
  keys,
  lackingFields,
  listIn,
  ok,
  ownFilter,
  removeIn,
  rows,
  same,
  schemaFindings,
  tagged,
  updateIn,
  type Doc,
  type OpsCheck,
  type OpsContext,
  type OpsRequirementId,
} from '../support';

const FAR = Math.floor(Date.now() / 1000) + 86400 * 3650;
const KINDS = ['service', 'entity'];

/**
 * Type problems of the fields the document lists for a window, as the MaintenanceWindow schema gives them (its objects
 * and object_type have requirements of their own): the table is the window's, not fields seen, so a listed field
 * holds its type. A field that is absent is not judged here (OPS-MW-FIELDS).
 */
const windowFieldProblems = (d: Doc): string[] =>
  schemaFindings('MaintenanceWindow', d)
    .filter((f) => f.requirement === 'OPS-MW-FIELD-TYPES')
    .map((f) => f.message);

/** The documented part of each entry, in a fixed order: a server may add more (a title, say) or reorder them. */
const refs = (objects: unknown) =>
  Array.isArray(objects)
    ? objects
        .map((o: Doc) => ({ object_type: o?.object_type, _key: o?._key }))
        .sort((a, b) => `${a.object_type}/${a._key}`.localeCompare(`${b.object_type}/${b._key}`))
    : objects;
/**
 * Epoch-second times within a second of the ones written, for the rules of create and update: how exactly a time reads
 * back is OPS-MW-TIMES-FRACTION's, judged on its own so that a server losing the fraction fails that rule alone.
 */
const sameTime = (read: unknown, sent: number) => typeof read === 'number' && Math.abs(read - sent) < 1;
const timesOf = (d: Doc | undefined, start: number, end: number) =>
  sameTime(d?.start_time, start) && sameTime(d?.end_time, end)
    ? { start_time: start, end_time: end }
    : { start_time: d?.start_time, end_time: d?.end_time };
/**
 * "epoch seconds (number, may be fractional)": a fractional time is a value the field holds, so its fraction reads
 * back. How finely is not stated: a time kept to the millisecond (every fraction written here is whole milliseconds)
 * is the time written. Numerically: a numeric string is the same time (its type is OPS-MW-FIELD-TYPES').
 */
const exactTime = (read: unknown, sent: number) =>
  (typeof read === 'number' || (typeof read === 'string' && read.trim() !== '')) && Math.abs(Number(read) - sent) < 0.0005;
/** The times of `d` that do not read back as written, described; empty when both do. */
const inexactTimes = (d: Doc | undefined, start: number, end: number): string[] =>
  (
    [
      ['start_time', start],
      ['end_time', end],
    ] as const
  )
    .filter(([f, sent]) => !exactTime(d?.[f], sent))
    .map(([f, sent]) => `${f} written ${sent}, read ${JSON.stringify(d?.[f])}`);
const badObjects = (d: Doc) =>
  !Array.isArray(d.objects) || d.objects.some((o: Doc) => !o || typeof o._key !== 'string' || !KINDS.includes(String(o.object_type)));

/**
 * A service and an entity of the run's own, for windows to point at: every window the suite writes names at least one
 * of them, with its start and end times, as a real window does (what a server does with other input is not shown).
 */
async function targets(ctx: OpsContext): Promise<Doc[]> {
  const [svc, ent] = allNeeded(
    await Promise.all([createIn(ctx, SERVICE, 'mw target service'), createIn(ctx, ENTITY, 'mw target entity')]),
    'a service and an entity for the windows to name',
  );
  return [
    { object_type: 'service', _key: svc.key },
    { object_type: 'entity', _key: ent.key },
  ];
}

/** The fields of a complete window of the run's own, naming one service it created; Unmet when that fails. */
async function completeWindow(ctx: OpsContext): Promise<Doc> {
  const svc = await createNeeded(ctx, SERVICE, 'mw target service');
  return { ...MAINTENANCE.template(), objects: [{ object_type: 'service', _key: svc.key }] };
}

const windowShape = (objects: Doc[]) =>
  fc.record({
    start: fc.integer({ min: 0, max: 86400 * 30 }),
    // Every case fractional, in eighths and in decimals a binary fraction does not hold exactly (0.1, 0.3).
    startFraction: fc.constantFrom(0.25, 0.5, 0.1, 0.125),
    length: fc.integer({ min: 60, max: 86400 }),
    endFraction: fc.constantFrom(0.5, 0.75, 0.3, 0.875),
    objects: fc.subarray(objects, { minLength: 1 }),
    comment: word,
  });

const supportedTypes: OpsCheck = {
  id: 'ops.maintenance.supported-types',
  title: 'maintenance_services_interface/get_supported_object_types MUST answer an array of strings containing maintenance_calendar',
  requirements: ['OPS-MW-SUPPORTED-TYPES'],
  shares: ['maintenance'],
  async run(ctx) {
    const ex = await ctx.http.send('mwSupportedObjectTypes');
    const types: unknown[] | undefined = Array.isArray(ex.json) ? ex.json : undefined;
    const good = ok(ex) && !!types && types.every((t) => typeof t === 'string') && types.includes('maintenance_calendar');
    ctx.expect.that(
      'OPS-MW-SUPPORTED-TYPES',
      'get_supported_object_types of the maintenance interface',
      good,
      { expected: 'a success with strings including maintenance_calendar', actual: `${ex.status} ${ex.text.slice(0, 120)}` },
      ex,
    );
  },
};

/** The times and objects a round-trip window is written with. */
interface WindowBody {
  start_time: number;
  end_time: number;
  objects: Doc[];
  comment: string;
}

/** Notes how exactly one read holds the fractional times written: OPS-MW-TIMES-FRACTION is judged once, on all reads. */
type HoldTimes = (where: string, d: Doc | undefined, start: number, end: number) => void;

/** The single read of a new window: its _key, object_type, objects, the values written and the types of its fields. */
async function judgeWindowRead(
  ctx: OpsContext,
  { key, title }: { key: string; title: unknown },
  body: WindowBody,
  holdTimes: HoldTimes,
): Promise<{ got: Exchange; d: Doc }> {
  const got = await getIn(ctx, MAINTENANCE, key);
  const d = asDoc(got.json ?? {});
  if (!ok(got) || d._key !== key)
    throw new Violation(`GET maintenance_calendar/${key} answered ${got.status} with _key ${JSON.stringify(d._key)}`, 'OPS-MW-GET', got, {
      expected: `a success with _key ${key}`,
      actual: `${got.status} with _key ${JSON.stringify(d._key)}`,
    });
  if (d.object_type !== 'maintenance_calendar')
    throw new Violation(`the window reads object_type ${JSON.stringify(d.object_type)}`, 'OPS-MW-OBJECT-TYPE', got, {
      expected: 'maintenance_calendar',
      actual: d.object_type,
    });
  if (badObjects(d))
    throw new Violation(`the window reads objects ${JSON.stringify(d.objects)}`, 'OPS-MW-OBJECTS', got, {
      expected: 'objects as {object_type, _key} references',
      actual: compact(d.objects),
    });
  const sent = { title, start_time: body.start_time, end_time: body.end_time, objects: refs(body.objects) };
  const read = { title: d.title, ...timesOf(d, body.start_time, body.end_time), objects: refs(d.objects) };
  holdTimes(`GET of ${key}`, d, body.start_time, body.end_time);
  if (!same(read, sent))
    throw new Violation(`the window was written as ${JSON.stringify(sent)} and reads ${JSON.stringify(read)}`, 'OPS-MW-CREATE', got, {
      expected: compact(sent),
      actual: compact(read),
    });
  const problems = windowFieldProblems(d);
  if (problems.length)
    throw new Violation(`the window's fields have other types than the document lists: ${problems.join('; ')}`, 'OPS-MW-FIELD-TYPES', got, {
      expected: 'the types the document lists',
      actual: problems.join('; '),
    });
  return { got, d };
}

/** The list of the run's windows holds the new one, as a maintenance_calendar with the times and objects written. */
async function judgeWindowListed(ctx: OpsContext, key: string, body: WindowBody, holdTimes: HoldTimes): Promise<void> {
  const list = await listIn(ctx, MAINTENANCE, { filter: ownFilter(ctx) });
  const row = rows(list).find((r) => r._key === key);
  if (!ok(list) || !row)
    throw new Violation(`the list of the run's windows (${list.status}) does not hold ${key}`, 'OPS-MW-LIST', list, {
      expected: `a success listing ${key}`,
      actual: `${list.status} without it`,
    });
  if (row.object_type !== 'maintenance_calendar')
    throw new Violation(`the listed window has object_type ${JSON.stringify(row.object_type)}`, 'OPS-MW-OBJECT-TYPE', list, {
      expected: 'maintenance_calendar',
      actual: row.object_type,
    });
  holdTimes(`the list row of ${key}`, row, body.start_time, body.end_time);
  if (!same(refs(row.objects), refs(body.objects)))
    throw new Violation(
      `the listed window has objects ${JSON.stringify(row.objects)}, written ${JSON.stringify(body.objects)}`,
      'OPS-MW-LIST',
      list,
      {
        expected: compact(body.objects),
        actual: compact(row.objects),
      },
    );
}

const roundTrip: OpsCheck = {
  id: 'ops.maintenance.round-trip',
  title:
    'A maintenance window created with POST MUST answer {_key} and read back (by key and in the list) with its title, epoch-second (fractional) times and objects, as object_type maintenance_calendar',
  requirements: [
    'OPS-MW-CREATE',
    'OPS-MW-GET',
    'OPS-MW-LIST',
    'OPS-MW-OBJECT-TYPE',
    'OPS-MW-OBJECTS',
    'OPS-MW-FIELDS',
    'OPS-MW-FIELD-TYPES',
    'OPS-MW-TIMES-FRACTION',
  ],
  shares: ['maintenance'],
  async run(ctx) {
    const objects = await targets(ctx);
    let n = 0;
    // Every window is written with fractional times: each read that answers it is held to them (OPS-MW-TIMES-FRACTION).
    const inexact: string[] = [];
    let judged = 0;
    const holdTimes = (where: string, d: Doc | undefined, start: number, end: number) => {
      judged++;
      const off = inexactTimes(d, start, end);
      if (off.length) inexact.push(`${where}: ${off.join(', ')}`);
    };
    const property = fc.asyncProperty(windowShape(objects), async (w) => {
      const start_time = FAR + w.start + w.startFraction;
      const body = { start_time, end_time: start_time + w.length + w.endFraction, objects: w.objects, comment: w.comment };
      const made = await createIn(ctx, MAINTENANCE, `mw round trip ${n++}`, body);
      try {
        if (!ok(made.ex) || !made.key)
          throw new Violation(
            `POST maintenance_calendar answered ${made.ex.status} ${made.ex.text.slice(0, 100)} without a string _key`,
            'OPS-MW-CREATE',
            made.ex,
            {
              expected: 'a success with a string _key',
              actual: `${made.ex.status} ${made.ex.text.slice(0, 100)}`,
            },
          );
        const { got, d } = await judgeWindowRead(ctx, { key: made.key, title: made.body.title }, body, holdTimes);
        await judgeWindowListed(ctx, made.key, body, holdTimes);
        // Last, as it is a SHOULD: the fields seen on windows that every window has from its creation on.
        const lacks = lackingFields(d, NEW_WINDOW_FIELDS);
        if (lacks.length)
          throw new Violation(`the window lacks ${lacks.join(', ')}`, 'OPS-MW-FIELDS', got, {
            expected: NEW_WINDOW_FIELDS.join(', '),
            actual: `no ${lacks.join(', ')}`,
          });
      } finally {
        await removeIn(ctx, MAINTENANCE, made);
      }
    });
    await checkProperty(
      ctx,
      ['OPS-MW-CREATE', 'OPS-MW-GET', 'OPS-MW-LIST', 'OPS-MW-OBJECT-TYPE', 'OPS-MW-OBJECTS', 'OPS-MW-FIELD-TYPES', 'OPS-MW-FIELDS'],
      'maintenance window round trip',
      property,
      {
        runs: Math.ceil(ctx.options.runs / 2),
      },
    );
    if (!judged) ctx.untested('OPS-MW-TIMES-FRACTION', 'no window written with fractional times was read back');
    else
      ctx.expect.that(
        'OPS-MW-TIMES-FRACTION',
        `fractional start_time and end_time of created windows, in ${judged} reads by key and in the list`,
        inexact.length === 0,
        {
          expected: 'the times as written',
          actual: inexact.slice(0, 3).join('; '),
        },
      );
  },
};

const NEW_WINDOW_FIELDS = ['title', 'start_time', 'end_time', 'objects', 'sec_grp_list', '_owner'];

const update: OpsCheck = {
  id: 'ops.maintenance.update',
  title:
    'POST maintenance_calendar/<_key> MUST answer {_key}: with is_partial_data=1 only the sent fields change, with 0 the window is replaced; fractional times MUST read back as written',
  requirements: ['OPS-MW-UPDATE', 'OPS-MW-TIMES-FRACTION'],
  shares: ['maintenance'],
  async run(ctx) {
    const objects = await targets(ctx);
    // Fractional times on every write that takes them: the create, the partial update and the full one.
    const start = FAR + 7200.25;
    // cf_comment, a field the suite makes up: a create may leave it out, and then it is written by a full update.
    const made = await createNeeded(ctx, MAINTENANCE, 'mw update', {
      start_time: start,
      end_time: start + 600.5,
      objects: objects.slice(0, 1),
      cf_comment: 'kept',
    });
    const partial = await updateIn(ctx, MAINTENANCE, made.key, { end_time: start + 3600.375 }, 1);
    ctx.expect.equal(
      'OPS-MW-UPDATE',
      'a partial update: success and _key',
      { success: ok(partial), _key: keyOf(partial) },
      { success: true, _key: made.key },
      partial,
    );
    const mergedRead = await getIn(ctx, MAINTENANCE, made.key);
    const merged = mergedRead.json;
    const mergedOk =
      sameTime(merged?.end_time, start + 3600.375) &&
      sameTime(merged?.start_time, start) &&
      merged?.cf_comment === 'kept' &&
      merged?.title === made.body.title &&
      same(refs(merged?.objects), refs(made.body.objects));
    const window = (w: Doc | undefined) =>
      compact({ title: w?.title, start_time: w?.start_time, end_time: w?.end_time, objects: w?.objects, cf_comment: w?.cf_comment });
    ctx.expect.that('OPS-MW-UPDATE', 'the window after is_partial_data=1 with end_time only', mergedOk, {
      expected: window({ ...made.body, end_time: start + 3600.375 }),
      actual: window(merged),
    });
    // The start_time the create wrote, and the end_time the partial update wrote.
    if (mergedOk)
      ctx.expect.equal(
        'OPS-MW-TIMES-FRACTION',
        'fractional times after a create and a partial update of end_time',
        inexactTimes(merged, start, start + 3600.375),
        [],
        mergedRead,
      );
    const title = tagged(ctx, 'mw update replaced');
    // A full update is a whole window: title, both times and the objects (now the entity instead of the service).
    const times = { start_time: start + 0.5, end_time: start + 60.125 };
    const full = await updateIn(ctx, MAINTENANCE, made.key, { title, ...times, objects: objects.slice(1) }, 0);
    ctx.expect.equal(
      'OPS-MW-UPDATE',
      'a full update: success and _key',
      { success: ok(full), _key: keyOf(full) },
      { success: true, _key: made.key },
      full,
    );
    const got = await getIn(ctx, MAINTENANCE, made.key);
    const replaced = asDoc(got.json ?? {});
    const owned = await serverFields(ctx, MAINTENANCE);
    try {
      // objects are compared as a set of references: a server may add fields of its own to each entry. Times within a
      // second are the ones written for this rule; how exactly they read is judged below.
      const { objects: _sent, ...earlier } = made.body;
      const near = { ...got, json: { ...replaced, ...timesOf(replaced, times.start_time, times.end_time) } };
      expectReplaced(earlier, { title, ...times }, near, owned, 'OPS-MW-UPDATE');
      ctx.expect.that(
        'OPS-MW-UPDATE',
        'objects the window names after is_partial_data=0 (as references)',
        same(refs(replaced.objects), refs(objects.slice(1))),
        { expected: compact(objects.slice(1)), actual: compact(replaced.objects) },
        got,
      );
    } catch (e) {
      if (!(e instanceof Violation)) throw e;
      // expectReplaced states what differs in its Violation: that message is the failure.
      ctx.assert('OPS-MW-UPDATE', false, `after is_partial_data=0: ${e.message}`, got, e.facts && factsOf(e.facts));
    }
    if (ok(full) && sameTime(replaced.start_time, times.start_time) && sameTime(replaced.end_time, times.end_time)) {
      ctx.expect.equal(
        'OPS-MW-TIMES-FRACTION',
        'fractional times after a full update, read by key',
        inexactTimes(replaced, times.start_time, times.end_time),
        [],
        got,
      );
      const row = rows(await listIn(ctx, MAINTENANCE, { filter: JSON.stringify({ title }) })).find((r) => r._key === made.key);
      if (row)
        ctx.expect.equal(
          'OPS-MW-TIMES-FRACTION',
          'fractional times after a full update, in the list',
          inexactTimes(row, times.start_time, times.end_time),
          [],
        );
    }
  },
};

const deleteAndCount: OpsCheck = {
  id: 'ops.maintenance.delete-and-count',
  title:
    'DELETE maintenance_calendar/<_key> MUST remove only that window, and count MUST follow: the filtered count, and the whole count equal to the list',
  requirements: ['OPS-MW-DELETE', 'OPS-MW-COUNT'],
  shares: ['maintenance'],
  async run(ctx) {
    const whole = await completeWindow(ctx);
    const made = allNeeded(
      await Promise.all(['a', 'b', 'c'].map((n) => createIn(ctx, MAINTENANCE, `mw delete ${n}`, whole))),
      'three windows',
    );
    const ks = made.map((m) => m.key);
    const own = await countIn(ctx, MAINTENANCE, { filter: ownFilter(ctx) });
    ctx.expect.equal(
      'OPS-MW-COUNT',
      "count of the run's windows (three created): success and count",
      { success: ok(own), count: countOf(own) },
      { success: true, count: 3 },
      own,
    );
    // Without a filter every readable window counts, and other checks may be writing: compare count and list at rest.
    await assertWholeCount(ctx, MAINTENANCE, 'OPS-MW-COUNT', 'windows');
    await deleteOneOfThree(ctx, MAINTENANCE, ks, 'OPS-MW-COUNT');
  },
};

/**
 * Counts against the read-only and the team-restricted caller: one object in the default group and one in a team the
 * run makes, so a count that ignores access has something to over-count. The run-tag filter keeps everyone else's
 * objects out of it. A caller is judged only where it is refused the read of one of the two by key: a read-only role
 * may read every team, and a count of what a caller can read all of shows nothing about access.
 */
export function readableCountCheck(
  c: Collection,
  id: string,
  countReq: OpsRequirementId,
  complete: (ctx: OpsContext) => Promise<Doc> = async () => ({}),
): OpsCheck {
  return {
    id,
    title: `Counts of ${c.type} MUST reflect the caller's access: the count of a caller refused one of the run's objects equals its own list, never more than the administrator's`,
    requirements: ['OPS-AUTH-COUNTS', countReq],
    needs: ['readonly'],
    uses: statesOf([c]),
    async run(ctx) {
      const team = await createNeeded(ctx, TEAM, `${c.type} restricted team`);
      const fields = await complete(ctx);
      const open = await createNeeded(ctx, c, `${c.type} readable`, fields);
      const closed = await createNeeded(ctx, c, `${c.type} team only`, { ...fields, sec_grp: team.key, sec_grp_list: [team.key] });
      const filter = ownFilter(ctx);
      const admin = await countIn(ctx, c, { filter });
      ctx.expect.equal(countReq, `the administrator's count of the run's two ${c.type} objects`, countOf(admin), 2, admin);
      let faced = false;
      for (const as of ['readonly', 'restricted'].filter((r) => ctx.has(r))) {
        const list = await listIn(ctx, c, { filter }, { as });
        const seen = keys(rows(list));
        const count = await countIn(ctx, c, { filter }, { as });
        // The capability each endpoint needs is not shown: a caller refused the list or the count has nothing to compare.
        if (!ok(list) || !ok(count)) {
          ctx.observe(
            'OPS-AUTH-COUNTS',
            `the ${as} caller's ${c.type} ${ok(list) ? 'count' : 'list'} was refused (${ok(list) ? count.status : list.status})`,
          );
          continue;
        }
        const refused: string[] = [];
        for (const [what, m] of [
          ['the default group', open],
          ["a team of the run's", closed],
        ] as const)
          if (!ok(await getIn(ctx, c, m.key, { as }))) refused.push(`${m.key} in ${what}`);
        ctx.observe(
          'OPS-AUTH-COUNTS',
          `${c.type}: the ${as} caller is refused ${refused.join(' and ') || 'neither object'} by key, and lists ${seen.length} of the two`,
        );
        if (!refused.length) continue;
        faced = true;
        ctx.expect.that(
          'OPS-AUTH-COUNTS',
          `the ${as} caller's count of the run's ${c.type} objects, refused ${refused.join(' and ')}`,
          countOf(count) === seen.length && seen.length <= (countOf(admin) ?? 0),
          {
            expected: `a success counting the ${seen.length} it lists (${seen.join(', ') || 'none'}), at most the administrator's ${countOf(admin)}`,
            actual: `${count.status} ${compact(countOf(count))}`,
          },
          count,
        );
      }
      if (!faced)
        ctx.untested(
          'OPS-AUTH-COUNTS',
          `${c.type}: no reader was refused either of the run's two objects by key, so none faced one it cannot read`,
        );
    },
  };
}

export const maintenanceChecks: OpsCheck[] = [
  supportedTypes,
  roundTrip,
  update,
  deleteAndCount,
  readableCountCheck(MAINTENANCE, 'ops.maintenance.counts-readable', 'OPS-MW-COUNT', completeWindow),
];
