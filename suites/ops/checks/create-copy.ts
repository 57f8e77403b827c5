import { isRunTitle } from '../../core/run-tag';
import { compact } from '../../core/expect';
import { isDoc, type Doc } from '../../core/json';
import { core, ENTITY, TEAM, type Collection } from '../collections';
import { createIn, getIn, listIn, ok, rows, tagged, type OpsCheck, type OpsContext } from '../support';

const WINDOW = core('custom_threshold_windows');

/**
 * Fields a server keeps for itself (identity, bookkeeping, computed views) and links to other objects a second
 * object could not share: what is left of a listed object is a body of its type's schema the server itself wrote.
 */
const SERVER_OWNED =
  /^(_.*|create_.*|mod_.*|identifying_name|permissions|retirable|services|can_.*|linked_services|overlapping_kpis|is_overlapping|last_stopped_time|next_scheduled_time)$/;

/** An entity's alias and informational values made the run's own, so the copy matches no rule the original does. */
function ownValues(ctx: OpsContext, d: Doc): Doc {
  const out: Doc = { ...d };
  for (const part of ['identifier', 'informational']) {
    const section = out[part];
    if (!isDoc(section) || !Array.isArray(section.fields)) continue;
    const fields = section.fields.filter((f): f is string => typeof f === 'string');
    const values = fields.map((f) => tagged(ctx, `${f} value`));
    fields.forEach((f, i) => {
      out[f] = [values[i]];
    });
    out[part] = { ...section, values };
  }
  return out;
}

function copyOf(ctx: OpsContext, c: Collection, d: Doc): Doc {
  const body = Object.fromEntries(Object.entries(d).filter(([k]) => !SERVER_OWNED.test(k) && k !== 'title'));
  return c === ENTITY ? ownValues(ctx, body) : body;
}

const TYPES: Collection[] = [ENTITY, TEAM, WINDOW];

export const createFromCopy: OpsCheck = {
  id: 'ops.core.create-from-copy',
  title:
    'POST <object_type> with a copy of an object the server lists (its identity, bookkeeping and links left out, a title of its own) follows the type schema, so it MUST be created and answered with its {_key}',
  requirements: ['OPS-CORE-CREATE', 'OPS-COMMON-POST-BODY'],
  async run(ctx) {
    for (const c of TYPES) {
      // Titles only: the rows of checks running beside this one are not this check's to judge. An object a run left
      // (its title starts with a check's tag) holds the suite's body, not the server's own.
      const listed = await listIn(ctx, c, { fields: 'title', limit: 20 });
      const pick = rows(listed).find((d) => typeof d.title === 'string' && !isRunTitle(d.title));
      const read = pick ? await getIn(ctx, c, String(pick._key)) : undefined;
      const original = read && ok(read) && isDoc(read.json) ? read.json : undefined;
      if (!original) {
        ctx.untested('OPS-CORE-CREATE', `the server lists no ${c.type} to copy`, listed);
        continue;
      }
      const body = copyOf(ctx, c, original);
      const made = await createIn(ctx, c, `Copy of ${c.type}`, body);
      const label = `create of a copy of ${c.type} ${String(original._key)}`;
      if (
        !ctx.expect.that(
          'OPS-CORE-CREATE',
          label,
          ok(made.ex) && made.key !== undefined,
          { expected: 'a success with a string _key', actual: `${made.ex.status} ${made.ex.text.slice(0, 160)}` },
          made.ex,
        )
      )
        continue;
      const got = await getIn(ctx, c, made.key!);
      ctx.expect.that(
        'OPS-COMMON-POST-BODY',
        `${label}: the copy read back under its key`,
        ok(got) && isDoc(got.json) && got.json.title === made.body.title,
        {
          expected: `title ${JSON.stringify(made.body.title)}`,
          actual: `${got.status} ${compact(isDoc(got.json) ? got.json.title : got.text.slice(0, 80))}`,
        },
        got,
      );
    }
  },
};
