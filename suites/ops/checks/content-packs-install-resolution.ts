import fc from 'fast-check';
import { compact } from '../../core/expect';
import { isDoc } from '../../core/json';
import { inLanes } from '../../core/lanes';
import { need } from '../../core/precondition';
import { checkProperty, Violation } from '../../core/property';
import type { Exchange } from '../../core/types';
import { SERVICE } from '../collections';
import { deleteIn, getIn, ok, updateIn, type Doc, type OpsCheck, type OpsContext } from '../support';
import { type Lane, candidates, findService, install, lanesOf, only, resultProblems, type Track, tracker } from './content-packs-install';
import { failuresFor, member, shown, successIds } from './content-packs-support';

type Prior = 'absent' | 'installed' | 'changed';
type Resolution = 'skip' | 'overwrite' | 'unset';
const PRIORS: Prior[] = ['absent', 'installed', 'changed'];
const RESOLUTIONS: Resolution[] = ['unset', 'skip', 'overwrite'];
const COMBOS = PRIORS.flatMap((prior) => RESOLUTIONS.map((resolution) => ({ prior, resolution })));

/** One service the cases install, and what the last case left of it (the next case starts by deleting it). */
interface Slot extends Lane {
  /** The title a 'changed' case gives the installed service. */
  changed: string;
  last?: Doc;
}
/** What the cases of every slot share: the prefix, the ledger, and what they saw that is recorded, not judged. */
interface Shared {
  ctx: OpsContext;
  prefix: string;
  track: Track;
  notes: Set<string>;
  /** Failure types reported for an object that was already installed, with no resolution given. */
  conflictTypes: Set<string>;
}

const titlesOf = (s: Shared, slot: Slot) => [s.prefix + slot.x.title, slot.changed];

async function reset(s: Shared, slot: Slot): Promise<void> {
  let there = slot.last ?? (await findService(s.ctx, slot.x.id, titlesOf(s, slot)));
  for (let i = 0; i < 3 && there; i++) {
    await deleteIn(s.ctx, SERVICE, String(there._key));
    there = await findService(s.ctx, slot.x.id, titlesOf(s, slot));
  }
  slot.last = undefined;
  if (there) throw new Violation(`the installed service ${slot.x.id} could not be deleted between cases`, 'OPS-CP-INSTALL');
}

/** Installs the slot's service and, for 'changed', changes its title and a marker: the state the case starts from. */
async function prepare(s: Shared, slot: Slot, prior: Prior): Promise<Doc | undefined> {
  if (prior === 'absent') return undefined;
  const { ctx, prefix } = s;
  const { pack, x } = slot;
  const first = await install(ctx, pack, only(x.id, { prefix }));
  let before = await findService(ctx, x.id, [prefix + x.title]);
  s.track('service', before?._key);
  if (!ok(first) || !before)
    throw new Violation(
      `installing ${x.id} of ${pack.id} answered ${shown(first)}, and ${before ? 'the service exists' : `no service ${x.id} titled "${prefix}${x.title}" exists`}`,
      'OPS-CP-INSTALL',
      first,
    );
  if (prior !== 'changed') return before;
  const upd = await updateIn(ctx, SERVICE, String(before._key), { title: slot.changed, cf_marker: ctx.options.runTag }, 1);
  if (!ok(upd)) throw new Violation(`could not change the installed service (${shown(upd)})`, 'OPS-CP-INSTALL-RESOLUTION', upd);
  // As read back: a partial update may leave out cf_marker, a field outside the schema (OPS-PARTIAL-NEW-FIELDS).
  const reread = await getIn(ctx, SERVICE, String(before._key));
  before = isDoc(reread.json) ? reread.json : { ...before, title: slot.changed, cf_marker: ctx.options.runTag };
  if (before.title !== slot.changed)
    throw new Violation(
      `the installed service, changed to the title ${JSON.stringify(slot.changed)}, reads ${shown(reread)}`,
      'OPS-CP-INSTALL-RESOLUTION',
      reread,
    );
  return before;
}

/** What a case's install left, as the rules below read it. */
interface Outcome {
  label: string;
  ex: Exchange;
  before: Doc | undefined;
  after: Doc | undefined;
  listed: boolean;
  failed: Doc[];
  kept: boolean;
  replaced: boolean;
  now: string;
}

/** One case: the slot's service in the prior state, then an install with the resolution; judged by `judge`. */
async function step(s: Shared, slot: Slot, prior: Prior, resolution: Resolution): Promise<void> {
  await reset(s, slot);
  const before = await prepare(s, slot, prior);
  const { x } = slot;
  const body = only(x.id, { prefix: s.prefix, ...(resolution === 'unset' ? {} : { resolution }) });
  const ex = await install(s.ctx, slot.pack, body);
  const state = prior === 'absent' ? 'not installed' : prior === 'installed' ? 'installed' : 'installed and changed';
  const label = `with ${x.id} ${state}, install ${JSON.stringify(body)}`;
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
  const after = await findService(s.ctx, x.id, titlesOf(s, slot));
  s.track('service', after?._key);
  slot.last = after;
  const now = after
    ? `the service is titled ${JSON.stringify(after.title)}${after.cf_marker ? ' and keeps cf_marker' : ' without cf_marker'}`
    : 'the service is not there';
  const kept = !!before && after?.title === before.title && after?.cf_marker === before.cf_marker;
  const replaced = after?.title === s.prefix + x.title && after?.cf_marker === undefined;
  const outcome = { label, ex, before, after, listed: successIds(ex).includes(x.id), failed: failuresFor(ex, x.id), kept, replaced, now };
  judge(s, slot, prior, resolution, outcome);
}

function judge(s: Shared, slot: Slot, prior: Prior, resolution: Resolution, o: Outcome): void {
  const { x } = slot;
  const { label, ex, now } = o;
  const installedTitle = s.prefix + x.title;
  if (prior === 'absent') {
    if (!o.after) throw new Violation(`${label}: ${now}`, 'OPS-CP-INSTALL', ex, { expected: `service ${x.id} installed`, actual: now });
    if (o.after.title !== installedTitle)
      throw new Violation(`${label}: ${now}, not "${installedTitle}"`, 'OPS-CP-INSTALL-PREFIX', ex, {
        expected: `title ${JSON.stringify(installedTitle)}`,
        actual: `title ${JSON.stringify(o.after.title)}`,
      });
    if (!o.listed)
      throw new Violation(
        `${label}: the service was installed but success does not list ${x.id}: ${JSON.stringify(member(ex, 'success')).slice(0, 200)}`,
        'OPS-CP-INSTALL-RESULT',
        ex,
        { expected: `success listing ${x.id}`, actual: compact(member(ex, 'success')) },
      );
  } else if (resolution === 'skip') {
    // Skipping is what skip asks for, not a failure: a failure entry is allowed, not required.
    if (o.listed || !o.kept)
      throw new Violation(
        `${label}: ${o.listed ? 'success lists it and ' : ''}${now}, skip installs only objects not already installed`,
        'OPS-CP-INSTALL-RESOLUTION',
        ex,
        {
          expected: `not in success; the service left titled ${JSON.stringify(o.before?.title)}`,
          actual: `${o.listed ? 'in success' : 'not in success'}; ${now}`,
        },
      );
    s.notes.add(
      `with skip an installed object is ${o.failed.length ? `reported in failure as ${JSON.stringify(o.failed[0]!.type)}` : 'left out of success and failure'}`,
    );
  } else if (resolution === 'overwrite') {
    if (!o.listed || !o.replaced)
      throw new Violation(
        `${label}: ${o.listed ? '' : 'success does not list it and '}${now}, overwrite replaces it with "${installedTitle}" and discards changes`,
        'OPS-CP-INSTALL-RESOLUTION',
        ex,
        {
          expected: `in success; the service titled ${JSON.stringify(installedTitle)} without the change`,
          actual: `${o.listed ? 'in success' : 'not in success'}; ${now}`,
        },
      );
  } else if (o.listed) s.notes.add(`without resolution an installed object is installed again: ${now}`);
  else judgeConflict(s, o);
}

/** Named in content, installed already and not installed again: a per-object failure, reported inside the result. */
function judgeConflict(s: Shared, o: Outcome): void {
  if (!o.failed.length)
    throw new Violation(
      `${o.label}: the object is neither installed again (success) nor reported in failure: ${compact(o.ex.json)}`,
      'OPS-ERR-CP-INSTALL-FAILURES',
      o.ex,
      { expected: 'the object in success or in failure', actual: compact(o.ex.json) },
    );
  if (!o.kept)
    throw new Violation(`${o.label}: the conflict is reported in failure, yet ${o.now}`, 'OPS-ERR-CP-INSTALL-FAILURES', o.ex, {
      expected: `the service left titled ${JSON.stringify(o.before?.title)}${o.before?.cf_marker ? ' with cf_marker' : ''}`,
      actual: o.now,
    });
  s.conflictTypes.add(String(o.failed[0]!.type));
}

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
    const lanes = lanesOf(await candidates(ctx), 3);
    need(lanes.length, 'no content pack has a service that is not installed yet');
    const tag = ctx.options.runTag;
    // One prefix for both installs: a server may add the prefix to the installed object's key as well as its title
    // ("prefix added to each installed object"), and then a second prefix would name another object, never the
    // installed one. Which install left the object is told by the change the 'changed' cases make.
    const s: Shared = { ctx, prefix: `${tag} `, track: tracker(ctx), notes: new Set(), conflictTypes: new Set() };
    const slots: Slot[] = lanes.map((l) => ({ ...l, changed: `${tag} changed ${l.x.title}` }));
    // Every prior state meets every resolution in each run, in a random order, the cases dealt over the services.
    const property = fc.asyncProperty(fc.shuffledSubarray(COMBOS, { minLength: COMBOS.length }), (combos) =>
      inLanes(combos, slots, (c, slot) => step(s, slot, c.prior, c.resolution)),
    );
    const services = slots.map((l) => `${l.pack.id} ${l.x.id}`).join(', ');
    const held = await checkProperty(
      ctx,
      ['OPS-CP-INSTALL', 'OPS-CP-INSTALL-RESOLUTION', 'OPS-CP-INSTALL-RESULT', 'OPS-CP-INSTALL-PREFIX', 'OPS-ERR-CP-INSTALL-FAILURES'],
      `install resolution over prior states of ${services}`,
      property,
      { runs: 1 },
    );
    await Promise.all(slots.map((slot) => reset(s, slot).catch(() => undefined)));
    for (const n of s.notes) ctx.observe('OPS-ERR-CP-INSTALL-FAILURES', n);
    const types = [...s.conflictTypes];
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
