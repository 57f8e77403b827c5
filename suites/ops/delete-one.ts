import { compact } from '../core/expect';
import type { Exchange } from '../core/types';
import type { Collection } from './collections';
import { countIn, countOf, deleteIn, getIn, keys, listIn, ownFilter, rows, type OpsContext } from './support';

/**
 * The delete-one walk every collection is held to: of three objects the check made, delete the middle one by key;
 * it must answer success, no longer read back, leave the other two listed, and take one off the run's own count.
 * The delete's answer is returned when it succeeded, so a check can go on to what it adds. `countRequirement`: where the
 * count after the delete is recorded (the collection's delete rule unless the check says otherwise).
 */
export async function deleteOneOfThree(
  ctx: OpsContext,
  c: Collection,
  ks: string[],
  countRequirement = c.requirements.delete,
): Promise<Exchange | undefined> {
  const requirement = c.requirements.delete;
  const before = countOf(await countIn(ctx, c, { filter: ownFilter(ctx) }));
  const del = await deleteIn(ctx, c, ks[1]);
  if (!ctx.expect.status(requirement, `DELETE ${c.type}/${ks[1]}`, del, '2xx')) return undefined;
  ctx.expect.status(requirement, `GET of the deleted ${c.type}`, await getIn(ctx, c, ks[1]), 'not 2xx');
  const left = keys(rows(await listIn(ctx, c, { filter: ownFilter(ctx) })));
  ctx.expect.that(
    requirement,
    `the run's ${c.type} objects listed after deleting ${ks[1]}`,
    left.includes(ks[0]) && left.includes(ks[2]) && !left.includes(ks[1]),
    {
      expected: `${ks[0]} and ${ks[2]}, not ${ks[1]}`,
      actual: compact(left),
    },
  );
  const after = await countIn(ctx, c, { filter: ownFilter(ctx) });
  // Relative to the count before, so that a count that is wrong to begin with is the count rule's failure, not this one's.
  const now = countOf(after);
  if (before !== undefined && now !== undefined)
    ctx.expect.equal(
      countRequirement,
      `count of the run's ${c.type} objects after one was deleted (${before} before)`,
      now,
      before - 1,
      after,
    );
  return del;
}
