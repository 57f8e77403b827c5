import { compact } from '../../core/expect';
import { BACKUP, type Collection, ENTITY, MAINTENANCE, SERVICE, statesOf, TEAM } from '../collections';
import {
  assertWholeCount,
  countIn,
  countOf,
  createIn,
  createNeeded,
  type Doc,
  getIn,
  keys,
  listIn,
  type Made,
  ok,
  type OpsCheck,
  type OpsContext,
  ownFilter,
  rows,
  type OpsRequirementId,
} from '../support';
import { createPack } from './authoring';

/** The Global team's key as the document gives it (the default security group). */
export const GLOBAL_TEAM = 'default_ops_security_group';

const RESULTS: OpsRequirementId = 'OPS-AUTH-RESULTS-READABLE';
const COUNTS: OpsRequirementId = 'OPS-AUTH-COUNTS';
/** "Counts of maintenance windows and jobs reflect the caller's access": the other counts are left open. */
const countReflectsAccess = (c: Collection) => c === MAINTENANCE || c === BACKUP;

/**
 * A reader and an object of the run's it may not read. `definite`: the target's own setup says the reader cannot read
 * it (the restricted user, whose read of the Global team is refused, and a core object in that team: a team is the
 * security group of the objects in it). Otherwise the object counts as unreadable only where the reader's read of it
 * by key is refused: a read-only role may read every team.
 */
interface Facing {
  as: string;
  hidden: Made;
  definite: boolean;
}

/** The means the run has to face a reader with an object it cannot read: teams, and who cannot read the Global one. */
interface Means {
  readers: string[];
  /** A team of the run's, which nobody granted any reader. */
  team: string;
  /** Readers whose read of the Global team is refused. */
  blind: Set<string>;
  /** A team the restricted user reads other than Global, where it writes objects of its own (another owner). */
  own?: string;
}

export const resultsRestrictedToReadable: OpsCheck = {
  id: 'ops.auth.results-readable',
  title:
    'Gets, lists and counts MUST contain only objects the caller can read: an object the read-only or the team-restricted caller cannot read is in none of them',
  requirements: [RESULTS, COUNTS],
  needs: ['readonly'],
  uses: [...statesOf([MAINTENANCE, BACKUP]), 'authoring'],
  async run(ctx) {
    const readers = ['readonly', 'restricted'].filter((r) => ctx.has(r));
    // Who cannot read the Global team, and (another owner) a team the restricted user reads and writes objects in.
    const [team, blind, own] = await Promise.all([
      createNeeded(ctx, TEAM, 'unreadable team'),
      ctx.has('restricted') ? getIn(ctx, TEAM, GLOBAL_TEAM, { as: 'restricted' }).then((ex) => !ok(ex)) : false,
      ctx.has('restricted')
        ? listIn(ctx, TEAM, {}, { as: 'restricted' }).then(
            (ex) => rows(ex).find((t) => typeof t._key === 'string' && t._key !== GLOBAL_TEAM)?._key,
          )
        : undefined,
    ]);
    const means: Means = {
      readers,
      team: team.key,
      blind: new Set(blind ? ['restricted'] : []),
      own: typeof own === 'string' ? own : undefined,
    };
    // Each collection's objects are the run's own, so the collections are judged side by side; a window is as
    // readable as the objects it names, so each unreadable window names the unreadable service of its team.
    const services = await hideIn(ctx, SERVICE, means);
    const windows = hideIn(ctx, MAINTENANCE, means, (face) => {
      const service = services.get(face.id);
      return { sec_grp_list: [face.group], objects: service ? [{ object_type: 'service', _key: service.key }] : [] };
    });
    // count_retirable after the entities: its retirable entities are entities of the run's, which the entity lists count.
    const entities = hideIn(ctx, ENTITY, means)
      .then((hidden) => judgeCollection(ctx, ENTITY, means, hidden))
      .then(() => judgeRetirable(ctx, means));
    await Promise.all([
      judgeCollection(ctx, SERVICE, means, services),
      windows.then((hidden) => judgeCollection(ctx, MAINTENANCE, means, hidden)),
      entities,
      hideIn(ctx, BACKUP, means).then((hidden) => judgeCollection(ctx, BACKUP, means, hidden)),
      judgePacks(ctx, means),
    ]);
  },
};

/** One way of hiding an object: the team it is written in, by whom (the administrator unless `by`), and the readers put to it. */
interface Face {
  id: string;
  group: string;
  readers: string[];
  by?: string;
}

/** The ways `m` gives of hiding an object from its readers. */
const facesOf = (m: Means): Face[] => [
  { id: 'team', group: m.team, readers: m.readers },
  ...(m.blind.size ? [{ id: 'global', group: GLOBAL_TEAM, readers: [...m.blind] }] : []),
  ...(m.own && m.readers.includes('readonly') ? [{ id: 'owner', group: m.own, readers: ['readonly'], by: 'restricted' }] : []),
];
const nameOf = (f: Face) =>
  f.id === 'global' ? 'in the global team' : f.id === 'owner' ? "of the restricted user's, in its team" : 'unreadable';

/** A created object some reader may not read, by the face that hides it. */
type Hidden = Map<string, Made & { key: string }>;

/** An object of `c` in each team of `m` that some reader may not read, created side by side. */
async function hideIn(ctx: OpsContext, c: Collection, m: Means, extra: (face: Face) => Doc = () => ({})): Promise<Hidden> {
  const hidden: Hidden = new Map();
  await Promise.all(
    facesOf(m).map(async (face) => {
      const made = await createIn(ctx, c, nameOf(face), { sec_grp: face.group, ...extra(face) }, face.by ? { as: face.by } : {});
      if (made.key) hidden.set(face.id, { ...made, key: made.key });
      else ctx.observe(RESULTS, `could not create a ${c.type} in team ${face.group}${face.by ? ` as ${face.by}` : ''} (${made.ex.status})`);
    }),
  );
  return hidden;
}

/**
 * Lists, gets and counts of `c` against its `hidden` object in each team of `m`, for each reader put to that team.
 * Every pair is judged side by side, as the judging only reads; the objects each reader can read are written after.
 * Untested where no reader was faced with an object it cannot read.
 */
async function judgeCollection(ctx: OpsContext, c: Collection, m: Means, hidden: Hidden) {
  const pairs = facesOf(m).flatMap((face) => {
    const made = hidden.get(face.id);
    return made ? face.readers.map((as) => ({ face, as, made })) : [];
  });
  const faced = await Promise.all(
    pairs.map(({ face, as, made }) =>
      judgeReader(ctx, c, { as, hidden: made, definite: face.id === 'global' && c.interface === 'itoa_interface' }).then((f) =>
        f ? as : undefined,
      ),
    ),
  );
  const readersFaced = [...new Set(faced.filter((as) => as !== undefined))];
  if (readersFaced.length) await judgeReadableListed(ctx, c, readersFaced);
  else
    for (const req of countReflectsAccess(c) ? [RESULTS, COUNTS] : [RESULTS])
      ctx.untested(
        req,
        `${c.type}: no reader was faced with an object it cannot read (each read the run's objects in its teams by key, and none is kept from the Global team)`,
      );
}

/**
 * Whether `as` was faced with `hidden` as an object it cannot read, and if so, that its get, list and count leave it
 * out. An object it reads by key must be in its list: left out, one of the two answers breaks the rule.
 */
async function judgeReader(ctx: OpsContext, c: Collection, f: Facing): Promise<boolean> {
  const { as, hidden, definite } = f;
  const filter = ownFilter(ctx);
  // The administrator's list before and after the reader's: other checks of the run write objects meanwhile, and a row
  // the reader lists that the administrator lists at neither moment is not the run's to show.
  const [probe, before] = await Promise.all([getIn(ctx, c, hidden.key, { as }), listIn(ctx, c, { filter })]);
  const list = await listIn(ctx, c, { filter }, { as });
  const after = await listIn(ctx, c, { filter });
  const admin = new Set([...keys(rows(before)), ...keys(rows(after))]);
  const mine = keys(rows(list));
  const where = `${c.type}/${hidden.key} ${definite ? 'in the Global team, which it cannot read' : 'in a team not granted to it'}`;
  if (ok(probe) && !definite) {
    // It reads the object: no object it cannot read, so only a failure is recorded (left out of its list, or a count
    // short of what it reads, one of the answers breaks the rule).
    if (!mine.includes(hidden.key))
      ctx.expect.contains(RESULTS, `the ${as} list, against ${where} it reads by key`, mine, hidden.key, probe);
    await judgeCount(ctx, c, as, mine, rows(after).length, ok(list), false);
    return false;
  }
  if (definite)
    ctx.expect.that(
      RESULTS,
      `the ${as} read by key of ${where}`,
      !ok(probe),
      { expected: 'no object (a refusal)', actual: `${probe.status} ${probe.text.slice(0, 100)}` },
      probe,
    );
  // A list refused as a whole shows nothing it may not: the capability each endpoint needs is not shown.
  if (ok(list))
    ctx.expect.equal(
      RESULTS,
      `the ${as} list of ${c.type}, against ${where}: rows it cannot read or the administrator does not list`,
      mine.filter((k) => k === hidden.key || !admin.has(k)),
      [],
      list,
    );
  await judgeCount(ctx, c, as, mine, rows(after).length, ok(list), true);
  return true;
}

/**
 * The count of `as` against the rows of its list (`mine`). Passed only where it was `faced` with an object it cannot
 * read; otherwise only a failure is recorded: a count below what the caller reads by key and lists.
 */
async function judgeCount(ctx: OpsContext, c: Collection, as: string, mine: string[], adminRows: number, listed: boolean, faced: boolean) {
  const req = countReflectsAccess(c) ? COUNTS : RESULTS;
  const count = await countIn(ctx, c, { filter: ownFilter(ctx) }, { as });
  if (!listed || !ok(count)) {
    if (faced) ctx.untested(req, `the ${as} ${c.type} ${listed ? 'count' : 'list'} was refused: no count to hold against a list`, count);
    return;
  }
  const n = countOf(count);
  // "Results are restricted to objects the caller can read. Counts of maintenance windows and jobs reflect the
  // caller's access": whether the other counts are results is not said, so a core count may count every object.
  const held = countReflectsAccess(c) ? n === mine.length : n === mine.length || n === adminRows;
  const expected = countReflectsAccess(c) ? `${mine.length} (its list)` : `${mine.length} (its list) or ${adminRows} (the administrator's)`;
  if (faced || !held)
    ctx.expect.that(
      req,
      `${c.type}: the ${as} count of the run's objects, against the rows of its list (${adminRows} for the administrator)`,
      held,
      { expected, actual: compact(n) },
      count,
    );
  if (!countReflectsAccess(c) && n !== mine.length)
    ctx.observe(req, `the ${as} count of ${c.type} counts objects the caller cannot read (${n}, its list ${mine.length})`);
  // Without a filter too, while an object it cannot read is there: the caller's count is the length of its list.
  if (faced && countReflectsAccess(c)) await assertWholeCount(ctx, c, req, `rows of the ${as} list`, { as });
}

/** The other way: an object of the run's in the default group that a reader reads by key is in its list. */
async function judgeReadableListed(ctx: OpsContext, c: Collection, readers: string[]) {
  const open = await createIn(ctx, c, 'readable', c === MAINTENANCE ? { objects: [] } : {});
  if (!open.key) return;
  const key = open.key;
  await Promise.all(
    readers.map(async (as) => {
      if (!ok(await getIn(ctx, c, key, { as }))) return;
      ctx.expect.contains(
        RESULTS,
        `the ${as} list of ${c.type} filtered by its title, against ${key} it reads by key`,
        keys(rows(await listIn(ctx, c, { filter: JSON.stringify({ title: open.body.title }) }, { as }))),
        key,
      );
    }),
  );
}

/** Lists beyond the core interface's object lists too: count_retirable leaves out a retirable entity the caller cannot read. */
async function judgeRetirable(ctx: OpsContext, m: Means): Promise<void> {
  await Promise.all(facesOf(m).map((face) => judgeRetirableFace(ctx, face)));
}

async function judgeRetirableFace(ctx: OpsContext, face: Face): Promise<void> {
  const retirable = await createIn(
    ctx,
    ENTITY,
    `${nameOf(face)} retirable`,
    { sec_grp: face.group, retirable: 1 },
    face.by ? { as: face.by } : {},
  );
  if (!retirable.key) return;
  for (const as of face.readers) {
    if (face.id !== 'global' && ok(await getIn(ctx, ENTITY, retirable.key, { as }))) continue;
    const listed = await ctx.http.send('entityCountRetirable', { as });
    ctx.expect.absent(
      RESULTS,
      `keys count_retirable lists to the ${as} caller, against the retirable ${retirable.key} ${face.id === 'global' ? 'in the Global team' : 'in a team not granted to it'} it cannot read`,
      keys(rows(listed)),
      retirable.key,
      listed,
    );
  }
}

/**
 * The authoring list against a custom content pack in a team of the run's: the document gives packs no team, so a
 * pack counts as unreadable only where the reader's read of it by key is refused; its count is left open as the core
 * counts are.
 */
async function judgePacks(ctx: OpsContext, m: Means): Promise<void> {
  let faced = false;
  const packs = await Promise.all(
    facesOf(m)
      .filter((f) => !f.by)
      .map(async (face) => ({ face, made: await createPack(ctx, `${nameOf(face)} pack`, { sec_grp: face.group }) })),
  );
  for (const { face, made } of packs) {
    if (!made.key) continue;
    for (const as of face.readers) {
      const probe = await ctx.http.send('cpAuthGet', { as, params: { content_pack_id: made.key } });
      const list = await ctx.http.send('cpAuthList', { as, query: { filter: ownFilter(ctx) } });
      const mine = keys(rows(list));
      if (ok(probe)) {
        if (ok(list) && !mine.includes(made.key))
          ctx.expect.contains(RESULTS, `the ${as} authoring list, against the pack ${made.key} it reads by key`, mine, made.key, probe);
        continue;
      }
      faced = true;
      if (ok(list))
        ctx.expect.absent(
          RESULTS,
          `the ${as} authoring list, against the pack ${made.key} whose read it was refused`,
          mine,
          made.key,
          list,
        );
    }
  }
  if (!faced) ctx.observe(RESULTS, 'custom content packs: every reader reads the packs of the run by key, in every team it was given');
}
