import { CORE_TYPES, ENTITY } from '../collections';
import { compact } from '../../core/expect';
import { createNeeded, type OpsCheck } from '../support';

const EXTRA_TYPES = ['entity_relationship', 'entity_relationship_rule'];

export const supportedObjectTypes: OpsCheck = {
  id: 'ops.core.supported-object-types',
  title: 'get_supported_object_types MUST list every core object type, plus entity_relationship and entity_relationship_rule',
  requirements: ['OPS-CORE-SUPPORTED-TYPES', 'OPS-CORE-OBJECT-TYPES', 'OPS-CORE-SUPPORTED-TYPES-EXTRA', 'OPS-CORE-UNUSED-TYPES'],
  async run(ctx) {
    const ex = await ctx.http.send('coreGetSupportedObjectTypes');
    const types = Array.isArray(ex.json) ? ex.json.map(String) : [];
    ctx.expect.that(
      'OPS-CORE-SUPPORTED-TYPES',
      'get_supported_object_types',
      Array.isArray(ex.json),
      { expected: 'an array', actual: Array.isArray(ex.json) ? `an array of ${types.length}` : `${ex.status} ${ex.text.slice(0, 120)}` },
      ex,
    );
    ctx.expect.equal(
      'OPS-CORE-OBJECT-TYPES',
      'core object types get_supported_object_types leaves out',
      CORE_TYPES.filter((t) => !types.includes(t)),
      [],
      ex,
    );
    ctx.expect.equal(
      'OPS-CORE-SUPPORTED-TYPES-EXTRA',
      'of entity_relationship and entity_relationship_rule, those get_supported_object_types leaves out',
      EXTRA_TYPES.filter((t) => !types.includes(t)),
      [],
      ex,
    );
    for (const t of ['entity_filter_rule', ...EXTRA_TYPES]) {
      const list = await ctx.http.send('coreList', { params: { object_type: t }, query: { limit: 5 } });
      ctx.observe(
        'OPS-CORE-UNUSED-TYPES',
        `GET ${t} answers ${list.status}${Array.isArray(list.json) ? ` with ${list.json.length} rows` : ''}`,
      );
    }
  },
};

export const aliasList: OpsCheck = {
  id: 'ops.core.alias-list',
  title:
    "get_alias_list MUST answer {identifier: [string], informational: [string]}; whether it names the entities' alias fields is observed",
  requirements: ['OPS-CORE-ALIAS-LIST', 'OPS-ENTITY-ALIAS-VALUES', 'OPS-COMMON-FULL-SCHEMAS'],
  async run(ctx) {
    const field = `cf_alias_${ctx.options.runTag.slice(-4)}`;
    const info = `cf_info_${ctx.options.runTag.slice(-4)}`;
    const { key } = await createNeeded(ctx, ENTITY, 'Alias Entity', {
      identifier: { fields: [field], values: ['host-a.example.test'] },
      informational: { fields: [info], values: ['rack 7'] },
      [field]: ['host-a.example.test'],
      [info]: ['rack 7'],
    });
    const ex = await ctx.http.send('coreGetAliasList');
    const body = ex.json;
    const shaped = Array.isArray(body?.identifier) && Array.isArray(body?.informational);
    if (
      !ctx.expect.that(
        'OPS-CORE-ALIAS-LIST',
        'get_alias_list',
        shaped,
        { expected: 'identifier and informational arrays', actual: ex.text.slice(0, 120) },
        ex,
      )
    )
      return;
    // The document gives the shape, not what the lists hold: whether they name the new entity's fields is recorded only.
    const listed = body!.identifier.includes(field) && body!.informational.includes(info);
    ctx.observe(
      'OPS-COMMON-FULL-SCHEMAS',
      listed
        ? 'get_alias_list names the alias fields of a new entity'
        : `get_alias_list does not name the new entity's alias fields (${field}, ${info})`,
    );
    const got = await ctx.http.send('coreGet', { params: { object_type: 'entity', _key: key } });
    const values = got.json?.[field];
    ctx.expect.that(
      'OPS-ENTITY-ALIAS-VALUES',
      `the alias field ${field} of the entity`,
      Array.isArray(values) && values.every((v) => typeof v === 'string'),
      { expected: 'an array of strings', actual: compact(values) },
      got,
    );
  },
};
