import { BACKUP, core, ENTITY, MAINTENANCE, SERVICE, statesOf, type Collection } from '../collections';
import { compact } from '../../core/expect';
import { asDoc } from '../../core/json';
import type { Exchange } from '../../core/types';
import { allNeeded, createIn, deleteIn, entryOf, getIn, ok, tagged, updateIn, type Made, type OpsCheck, type OpsContext } from '../support';

/** A core type no other check writes: an object of it under another object's key is the rarest of coincidences. */
const KPI_TEMPLATE = core('kpi_template');

/**
 * `<object_type>/<_key>` names the type as well as the key: a read, update or delete by key under one type answers,
 * changes or removes that type's object, never an object of another type (nor of another interface) that has the
 * key. Each pair is the type addressed and the type of the object whose key is sent.
 */
const PAIRS: [addressed: Collection, owner: Collection][] = [
  [ENTITY, SERVICE],
  [SERVICE, ENTITY],
  [KPI_TEMPLATE, SERVICE],
  [SERVICE, MAINTENANCE],
  [MAINTENANCE, BACKUP],
  [BACKUP, MAINTENANCE],
];

/** The answer is the other type's object: its object_type, or its own (unique, tagged) title under its key. */
const isOwners = (ex: Exchange, owner: Collection, made: Made) => {
  const d = asDoc(ex.json);
  return ok(ex) && (d.object_type === owner.type || d.title === made.body.title);
};
const seen = (ex: Exchange) =>
  `${ex.status} ${compact({ _key: asDoc(ex.json)._key, object_type: asDoc(ex.json).object_type, title: asDoc(ex.json).title })}`;

/**
 * Reads `<addressed>/<key of made>` and, unless an object of the addressed type holds that key by chance (keys may
 * be counted per type; that object is not the run's), sends `write` there. The other type's object read afterwards
 * must be as it was.
 */
async function judgeWrite(ctx: OpsContext, addressed: Collection, owner: Collection, made: Made, verb: 'update' | 'delete'): Promise<void> {
  const at = `${addressed.type}/${made.key} (the key of a ${owner.type})`;
  const got = await getIn(ctx, addressed, made.key);
  ctx.expect.that(
    addressed.requirements.get,
    `GET ${at}`,
    !isOwners(got, owner, made),
    { expected: `not the ${owner.type} ${made.key}`, actual: seen(got) },
    got,
  );
  const requirement = addressed.requirements[verb];
  if (ok(got) && !isOwners(got, owner, made))
    return ctx.untested(requirement, `${at} reads an object of its own type, which the run does not own`, got);
  const sent =
    verb === 'update'
      ? await updateIn(ctx, addressed, made.key, { title: tagged(ctx, `type in path ${addressed.type} renamed`) }, 1)
      : await deleteIn(ctx, addressed, made.key);
  // An update by key may create the addressed object (which of the two it does is not shown): it is the run's then.
  if (verb === 'update' && ok(sent)) ctx.ledger.add(entryOf(addressed, made.key), () => deleteIn(ctx, addressed, made.key));
  const after = await getIn(ctx, owner, made.key);
  ctx.expect.equal(
    requirement,
    `the ${owner.type} ${made.key} after ${verb === 'update' ? 'POST' : 'DELETE'} ${at} (${sent.status}): success and title`,
    { success: ok(after), title: asDoc(after.json).title },
    { success: true, title: made.body.title },
    after,
  );
}

export const typeInPath: OpsCheck = {
  id: 'ops.core.type-in-path',
  title: 'A read, update or delete of <object_type>/<_key> MUST NOT reach an object of another type (or interface) that has that key',
  requirements: [
    'OPS-CORE-GET',
    'OPS-CORE-UPDATE',
    'OPS-CORE-DELETE',
    'OPS-MW-GET',
    'OPS-MW-UPDATE',
    'OPS-MW-DELETE',
    'OPS-BR-GET',
    'OPS-BR-UPDATE',
    'OPS-BR-DELETE',
  ],
  uses: statesOf([MAINTENANCE, BACKUP]),
  async run(ctx) {
    // An object of its own per pair and write, and one at a time: a write that reaches the wrong object is told
    // apart from the next one's (an update may create the addressed object, which a delete then finds).
    const writes = PAIRS.flatMap(([addressed, owner]) => (['update', 'delete'] as const).map((verb) => ({ addressed, owner, verb })));
    const made = allNeeded(
      await Promise.all(writes.map((w) => createIn(ctx, w.owner, `type in path ${w.owner.type} ${w.verb} under ${w.addressed.type}`))),
      'the objects whose keys are sent under other types',
    );
    for (const [i, w] of writes.entries()) await judgeWrite(ctx, w.addressed, w.owner, made[i]!, w.verb);
  },
};
