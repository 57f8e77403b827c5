import fc from 'fast-check';
import { compact } from '../../core/expect';
import { isDoc } from '../../core/json';
import { inLanes } from '../../core/lanes';
import { need } from '../../core/precondition';
import { checkProperty, Violation } from '../../core/property';
import type { Exchange } from '../../core/types';
import { SERVICE } from '../collections';
import { deleteIn, listIn, ok, type Doc, type OpsCheck, type OpsContext } from '../support';
import {
  candidates,
  findService,
  install,
  type Lane,
  lanesOf,
  only,
  resultProblems,
  savedSearchProblems,
  sweep,
  type Track,
  tracker,
} from './content-packs-install';
import { docs, enabledOf, packParams, shown, successIds } from './content-packs-support';

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

/** One service the cases install, and what the last case left of it (the next case starts by deleting it). */
interface Slot extends Lane {
  last?: Doc;
}
/** What the cases of every slot share: the prefix, the ledger, and what they saw that is recorded, not judged. */
interface Shared {
  ctx: OpsContext;
  prefix: string;
  track: Track;
  backfillSeen: string[];
  stateUnseen: string[];
  dependencies: Set<string>;
  /** Results that carried saved_searches, each judged. */
  saved: number;
}

async function reset(s: Shared, slot: Slot): Promise<void> {
  const there = slot.last ?? (await findService(s.ctx, slot.x.id, [s.prefix + slot.x.title]));
  slot.last = undefined;
  if (there) await deleteIn(s.ctx, SERVICE, String(there._key));
}

function checkSaved(s: Shared, ex: Exchange, label: string): void {
  const bad = savedSearchProblems(ex);
  if (bad === undefined) return;
  s.saved++;
  if (bad.length)
    throw new Violation(`${label}: saved_searches ${bad.join('; ')}`, 'OPS-CP-INSTALL-SAVED-SEARCHES', ex, {
      expected: 'saved_searches as {action_performed, success, failure}',
      actual: bad.join('; '),
    });
}

/** One case: an install of the slot's service with `enabled` and `backfill` as given (or left out). */
async function optionCase(s: Shared, slot: Slot, enabled: Flag, backfill: Flag, numeric: boolean): Promise<void> {
  const { ctx, prefix } = s;
  const { x } = slot;
  await reset(s, slot);
  const body = only(x.id, { prefix, enabled: flagValue(enabled, numeric), backfill: flagValue(backfill, numeric) });
  const label = `install ${JSON.stringify(body)}`;
  const ex = await install(ctx, slot.pack, body);
  const after = await findService(ctx, x.id, [prefix + x.title]);
  s.track('service', after?._key);
  slot.last = after;
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
  if (others.length && x.dependent) s.dependencies.add(others.join(', '));
  else if (others.length)
    throw new Violation(`${label} reported ${others.join(', ')} installed too, which content did not name`, 'OPS-CP-INSTALL-CONTENT', ex, {
      expected: `${x.id} alone in success`,
      actual: compact(successIds(ex)),
    });
  checkSaved(s, ex, label);
  if (after.title !== prefix + x.title)
    throw new Violation(`${label} installed the service as ${JSON.stringify(after.title)}`, 'OPS-CP-INSTALL-PREFIX', ex, {
      expected: `title ${JSON.stringify(prefix + x.title)}`,
      actual: `title ${JSON.stringify(after.title)}`,
    });
  const state = enabledOf(after);
  if (state === undefined) s.stateUnseen.push(`${label}: the installed service shows neither enabled nor disabled`);
  else if (state !== (enabled === 'on'))
    throw new Violation(
      `${label} installed the service with enabled=${JSON.stringify(after.enabled)}, disabled=${JSON.stringify(after.disabled)}`,
      'OPS-CP-INSTALL-ENABLED',
      ex,
      { expected: enabled === 'on' ? 'enabled' : 'not enabled', actual: state ? 'enabled' : 'not enabled' },
    );
  // The document names no field that shows backfill: what a server reports is recorded, never judged.
  const flags = backfillFlags(after);
  if (flags.length) s.backfillSeen.push(`backfill ${backfill}: backfill_enabled ${JSON.stringify(flags)}`);
}

/** What the property leaves to judge once it held: backfill (unseen), the state where not shown, saved_searches. */
function afterCases(s: Shared, held: boolean, slots: Slot[]): void {
  const { ctx } = s;
  if (s.dependencies.size)
    ctx.observe(
      'OPS-CP-INSTALL-CONTENT',
      `installing ${slots.map((l) => l.x.id).join(' or ')}, which the preview does not say is free of dependencies, also installed ${[...s.dependencies].join('; ')}`,
    );
  if (!held) return;
  ctx.untested(
    'OPS-CP-INSTALL-BACKFILL',
    'the document names no field that shows whether KPI data was backfilled: installs with backfill true, false, 1, 0 and unset were accepted',
  );
  for (const seen of new Set(s.backfillSeen)) ctx.observe('OPS-CP-INSTALL-BACKFILL', seen);
  for (const seen of new Set(s.stateUnseen)) ctx.observe('OPS-CP-INSTALL-ENABLED', seen);
  // The property judged every result that carried saved_searches; it held.
  if (s.saved)
    ctx.expect.that('OPS-CP-INSTALL-SAVED-SEARCHES', 'saved_searches of the install results', true, {
      expected: '{action_performed, success, failure} as the schema gives them',
      actual: `so in each of ${s.saved} results`,
    });
  else ctx.untested('OPS-CP-INSTALL-SAVED-SEARCHES', 'no install result carried saved_searches');
}

/** The default prefix: no prefix sent, so this one object carries no run tag for a moment: it is deleted at once. */
async function defaultPrefix(s: Shared, slot: Slot): Promise<void> {
  const { ctx } = s;
  const { pack, x } = slot;
  await reset(s, slot);
  const namesake = async () =>
    docs((await listIn(ctx, SERVICE, { filter: JSON.stringify({ title: x.title }) })).json).filter((d) => d.title === x.title);
  const earlier = new Set((await namesake()).map((d) => String(d._key)));
  const bare = await install(ctx, pack, only(x.id));
  const plain = (await findService(ctx, x.id, [])) ?? (await namesake()).find((d) => !earlier.has(String(d._key)));
  if (plain) {
    s.track('service', plain._key);
    await deleteIn(ctx, SERVICE, String(plain._key));
  }
  ctx.expect.status('OPS-CP-INSTALL-OPTIONAL', 'install with content only', bare, '2xx');
  if (plain)
    ctx.expect.equal('OPS-CP-INSTALL-PREFIX', `title of ${x.id} installed without prefix, against the pack's`, plain.title, x.title, bare);
  else
    ctx.untested(
      'OPS-CP-INSTALL-PREFIX',
      `without prefix no new service was found under the key ${x.id} or the title ${JSON.stringify(x.title)}`,
      bare,
    );
}

/** installed_versions once the check installed the pack: an array, not empty. */
async function versionsAfter(ctx: OpsContext, pack: Doc): Promise<void> {
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
    const slots: Slot[] = lanesOf(await candidates(ctx), 3);
    need(slots.length, 'no content pack has a service that is not installed yet');
    const first = slots[0]!;
    await Promise.all(slots.map((l) => versionsBefore(ctx, l.pack)));
    const track = tracker(ctx);
    const s: Shared = {
      ctx,
      prefix: `${ctx.options.runTag} `,
      track,
      backfillSeen: [],
      stateUnseen: [],
      dependencies: new Set(),
      saved: 0,
    };
    const cases = fc.tuple(
      fc.shuffledSubarray(
        FLAGS.flatMap((e) => FLAGS.map((b) => [e, b] as const)),
        { minLength: 9 },
      ),
      fc.boolean(),
    );
    // Both forms of a Boolean in every run: the form follows the combination (flipped by the seed), so that each of
    // 1, 0, true and false is sent for enabled and for backfill alike. The cases are dealt over the services.
    const numericFor = (enabled: Flag, backfill: Flag, flip: boolean) =>
      ((FLAGS.indexOf(enabled) + FLAGS.indexOf(backfill)) % 2 === 0) !== flip;
    const property = fc.asyncProperty(cases, ([combos, flip]) =>
      inLanes(combos, slots, ([enabled, backfill], slot) => optionCase(s, slot, enabled, backfill, numericFor(enabled, backfill, flip))),
    );
    const held = await checkProperty(
      ctx,
      ['OPS-CP-INSTALL-OPTIONAL', 'OPS-CP-INSTALL-ENABLED', 'OPS-CP-INSTALL-PREFIX', 'OPS-CP-INSTALL-RESULT', 'OPS-CP-INSTALL-CONTENT'],
      `install options of ${slots.map((l) => `${l.pack.id} ${l.x.id}`).join(', ')}`,
      property,
      { runs: 1 },
    );
    if (s.dependencies.size) await sweep(ctx, track);
    afterCases(s, held, slots);
    await Promise.all(slots.slice(1).map((slot) => reset(s, slot)));
    // The first pack was installed last, by the default-prefix case: its installed_versions is read after it.
    await defaultPrefix(s, first);
    await versionsAfter(ctx, first.pack);
  },
};
