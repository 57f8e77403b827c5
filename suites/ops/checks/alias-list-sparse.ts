import { need } from '../../core/precondition';
import { ENTITY } from '../collections';
import { createIn, ok, schemaFindings, type OpsCheck } from '../support';

export const aliasListSparseEntities: OpsCheck = {
  id: 'ops.core.alias-list-sparse-entities',
  title:
    'get_alias_list MUST answer {identifier: [string], informational: [string]} also while entities without identifier and informational, or with both null, are stored',
  requirements: ['OPS-CORE-ALIAS-LIST'],
  async run(ctx) {
    // The entity schema is not shown: a server may refuse either entity; the alias list is judged with whichever it keeps.
    const made = await Promise.all([
      createIn(ctx, ENTITY, 'alias list without alias fields'),
      createIn(ctx, ENTITY, 'alias list with null alias fields', { identifier: null, informational: null }),
    ]);
    const kept = made.filter((m) => m.key).length;
    need(kept, `entities without identifier and informational were refused (${made[0].ex.status}, ${made[1].ex.status})`, made[0].ex);
    const ex = await ctx.http.send('coreGetAliasList');
    // The AliasList schema: identifier and informational, both arrays of strings.
    ctx.expect.that(
      'OPS-CORE-ALIAS-LIST',
      `get_alias_list with ${kept} entities stored without alias fields`,
      ok(ex) && schemaFindings('AliasList', ex.json).length === 0,
      { expected: 'a success with identifier and informational arrays of strings', actual: `${ex.status} ${ex.text.slice(0, 160)}` },
      ex,
    );
  },
};
