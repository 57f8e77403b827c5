import { Violation } from '../core/property';
import type { Exchange } from '../core/types';
import type { Collection } from './collections';
import { createIn, getIn, ok, removeIn, same, updateIn, type Doc, type OpsContext } from './support';
import { asDoc, isDoc } from '../core/json';
import { isMadeUp } from './arbitraries/values';

/**
 * Real servers add fields of their own to what a client writes (a service comes back with `kpis`, `entity_rules`,
 * `permissions`, `enabled`...) and keep them through updates. Which fields those are is learned from the server
 * during the run, never listed here: the fields a minimal create comes back with that were not sent, and those
 * still there after a replacement that sent only the title. Each value is the one the server gave a fresh object
 * (its default).
 */
export type Owned = Map<string, unknown>;

export async function serverFields(ctx: OpsContext, c: Collection): Promise<Owned> {
  const owned: Owned = new Map([['_key', undefined]]);
  const made = await createIn(ctx, c, 'field ownership');
  if (!made.key) return owned;
  try {
    const created = asDoc((await getIn(ctx, c, made.key)).json);
    for (const [k, v] of Object.entries(created)) if (!(k in made.body)) owned.set(k, v);
    const title = made.body.title;
    const replaced = await updateIn(ctx, c, made.key, { title }, 0);
    if (ok(replaced))
      for (const [k, v] of Object.entries(asDoc((await getIn(ctx, c, made.key)).json))) if (k !== 'title' && !owned.has(k)) owned.set(k, v);
  } finally {
    await removeIn(ctx, c, made);
  }
  return owned;
}

const shown = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));

/**
 * How deep a partial update merges is not said: a sub-object sent into a sub-object may replace it (a shallow merge)
 * or be merged into it, member by member (arrays and other values are replaced either way).
 */
function deepMerged(stored: unknown, sent: unknown): unknown {
  if (!isDoc(stored) || !isDoc(sent)) return sent;
  const out: Doc = { ...stored };
  for (const [k, v] of Object.entries(sent)) out[k] = deepMerged(stored[k], v);
  return out;
}

/**
 * A partial update changes the fields it sends and nothing the client owns: the object as read just before,
 * merged with the patch. Fields of the server's own may change (bookkeeping) but must not vanish. The
 * document says only of a full update that fields outside the schema are written ("With 0, fields that are not in
 * the original schema are written too"): a partial one may leave a made-up field (isMadeUp) as it was, held or not.
 * Returns the fields so left out; a patch should carry a documented field too (the title), so that it is judged.
 * A sent field that does not read as sent fails `requirement`; a field not sent that changed fails `rest` (the merge
 * rule itself, where `requirement` is the endpoint's: the update did reach the object, and did not merge).
 */
export function expectMerged(
  before: Doc,
  patch: Doc,
  after: Exchange,
  owned: Owned,
  requirement: string,
  rest = requirement,
  written?: Doc,
): string[] {
  const now = asDoc(after.json);
  const dropped = Object.keys(patch).filter((k) => isMadeUp(k) && !same(now[k], patch[k]) && same(now[k], before[k]));
  for (const [k, v] of Object.entries(patch)) {
    if (dropped.includes(k)) continue;
    if (!same(now[k], v) && !same(now[k], deepMerged(before[k], v)) && !(writtenStructured(patch, k) && holdsSent(v, now[k])))
      throw new Violation(`field ${k} was sent as ${shown(v)} in a partial update and reads ${shown(now[k])}`, requirement, after, {
        expected: `${k}: ${shown(v)}`,
        actual: `${k}: ${shown(now[k])}`,
      });
  }
  for (const [k, v] of Object.entries(before)) {
    if (k in patch) continue;
    if (writtenStructured(written, k)) {
      if (!holdsSent(written![k], now[k]))
        throw new Violation(
          `field ${k}, written at create and not sent in a partial update of ${JSON.stringify(patch)}, reads ${shown(now[k])}`,
          rest,
          after,
          {
            expected: `${k} holding ${shown(written![k])}`,
            actual: `${k}: ${shown(now[k])}`,
          },
        );
    } else if (owned.has(k)) {
      if (!(k in now))
        throw new Violation(`field ${k} of the server's own vanished in a partial update that did not send it`, rest, after, {
          expected: `${k} present`,
          actual: `${k} absent`,
        });
    } else if (!same(now[k], v))
      throw new Violation(
        `field ${k}, not sent in a partial update of ${JSON.stringify(patch)}, went from ${shown(v)} to ${shown(now[k])}`,
        rest,
        after,
        {
          expected: `${k}: ${shown(v)}`,
          actual: `${k}: ${shown(now[k])}`,
        },
      );
  }
  return dropped;
}

/**
 * A full update writes every field it carries, and every field the client had set before and the body omits is
 * gone; fields the server adds on its own are tolerated, but not holding the client's old value in place of their own.
 * A sent field that does not read as sent fails `requirement`; an omitted field left in place fails `rest`.
 */
export function expectReplaced(earlier: Doc, next: Doc, after: Exchange, owned: Owned, requirement: string, rest = requirement): void {
  const now = asDoc(after.json);
  for (const [k, v] of Object.entries(next)) {
    if (k === '_key') continue;
    if (!same(now[k], v))
      throw new Violation(`field ${k} was sent as ${shown(v)} in a full update and reads ${shown(now[k])}`, requirement, after, {
        expected: `${k}: ${shown(v)}`,
        actual: `${k}: ${shown(now[k])}`,
      });
  }
  const omitted = Object.keys(earlier).filter((k) => !(k in next) && k in now);
  const kept = omitted.filter((k) => !owned.has(k) || (same(now[k], earlier[k]) && !same(earlier[k], owned.get(k))));
  if (kept.length)
    throw new Violation(
      `a full update without ${kept.join(', ')} left ${kept.map((k) => `${k}=${shown(now[k])}`).join(', ')} in place`,
      rest,
      after,
      {
        expected: `without ${kept.join(', ')}`,
        actual: kept.map((k) => `${k}=${shown(now[k])}`).join(', '),
      },
    );
}

/** `got` still holds what the client wrote as `sent`: its members, and for an array each element it sent, among others or not. */
function holdsSent(sent: unknown, got: unknown): boolean {
  if (Array.isArray(sent)) return Array.isArray(got) && sent.every((v) => got.some((g) => holdsSent(v, g)));
  if (isDoc(sent)) return isDoc(got) && Object.entries(sent).every(([k, v]) => holdsSent(v, got[k]));
  return same(sent, got);
}

/**
 * A documented structured field the client wrote at create (a service's KPIs): the server may stamp members of its
 * own inside it (a KPI's key, the title of its service, a KPI it adds), so a partial update that leaves it out is
 * held to keeping what the client wrote there, not to the whole value as read before.
 */
const writtenStructured = (written: Doc | undefined, k: string) =>
  written !== undefined && k in written && !isMadeUp(k) && typeof written[k] === 'object' && written[k] !== null;
