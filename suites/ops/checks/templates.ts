import type { Check } from '../../core/check';
import { BASE_SERVICE_TEMPLATE, KPI_BASE_SEARCH, SERVICE, TEAM } from '../collections';
import { createIn, getIn, keyOf, ok, type Doc } from '../support';


export const templatizeTypes: Check = {
  id: 'ops.core.templatize',
  title: 'templatize MUST answer a template dictionary for service and kpi_base_search, and MUST NOT for other types',
  requirements: ['OPS-CORE-TEMPLATIZE', 'OPS-CORE-TEMPLATIZE-TYPES'],
  async run(ctx) {
    for (const c of [SERVICE, KPI_BASE_SEARCH]) {
      const { key } = await createIn(ctx, c, `Templatize ${c.type}`);
      if (!key) {
        ctx.untested('OPS-CORE-TEMPLATIZE', `could not create a ${c.type}`);
        continue;
      }
      const ex = await ctx.http.send('coreTemplatize', { params: { object_type: c.type, _key: key } });
      const dict = ok(ex) && ex.json !== null && typeof ex.json === 'object' && !Array.isArray(ex.json);
      ctx.assert('OPS-CORE-TEMPLATIZE', dict, dict ? `templatize ${c.type} answered a dictionary` : `templatize ${c.type} answered ${ex.status} ${ex.text.slice(0, 80)}`, ex);
    }
    const { key } = await createIn(ctx, TEAM, 'Templatize team');
    if (!key) return ctx.untested('OPS-CORE-TEMPLATIZE-TYPES', 'could not create a team');
    const ex = await ctx.http.send('coreTemplatize', { params: { object_type: 'team', _key: key } });
    ctx.assert('OPS-CORE-TEMPLATIZE-TYPES', !ok(ex), `templatize of a team answered ${ex.status}; only service and kpi_base_search support it`, ex);
  },
};

export const templateLinkPersists: Check = {
  id: 'ops.service.base-service-template',
  title: "Linking a service to a template MUST persist, be readable with GET base_service_template, and append the template's entity rules",
  requirements: ['OPS-TEMPLATE-BASE-GET', 'OPS-TEMPLATE-BASE-LINK', 'OPS-TEMPLATE-APPEND-RULES'],
  async run(ctx) {
    const rule = (field: string) => ({ rule_condition: 'AND', rule_items: [{ field, field_type: 'alias', rule_type: 'matches', value: `${ctx.options.runTag}-${field}` }] });
    const tpl = await createIn(ctx, BASE_SERVICE_TEMPLATE, 'Link Template', { entity_rules: [rule('host')] });
    const svc = await createIn(ctx, SERVICE, 'Linked Service', { entity_rules: [rule('ip')] });
    if (!tpl.key || !svc.key) return ctx.untested('OPS-TEMPLATE-BASE-LINK', 'could not create the template and the service');
    const link = await ctx.http.send('serviceLinkBaseServiceTemplate', { params: { _key: svc.key }, body: { _key: tpl.key } });
    ctx.assert('OPS-TEMPLATE-BASE-LINK', ok(link) && typeof keyOf(link) === 'string', `linking answered ${link.status} ${link.text.slice(0, 80)}`, link);
    const read = await ctx.http.send('serviceGetBaseServiceTemplate', { params: { _key: svc.key } });
    ctx.assert('OPS-TEMPLATE-BASE-GET', ok(read) && keyOf(read) === tpl.key, `GET base_service_template answered ${read.status} {_key: ${JSON.stringify(keyOf(read))}}, expected ${tpl.key}`, read);
    const service = (await getIn(ctx, SERVICE, svc.key)).json as Doc;
    const rules = JSON.stringify(service?.entity_rules ?? []);
    const appended = rules.includes(`${ctx.options.runTag}-ip`) && rules.includes(`${ctx.options.runTag}-host`) && rules.indexOf(`${ctx.options.runTag}-ip`) < rules.indexOf(`${ctx.options.runTag}-host`);
    ctx.assert('OPS-TEMPLATE-APPEND-RULES', appended, appended ? "the template's entity rules follow the service's own" : `after linking, the service's entity_rules are ${rules.slice(0, 300)}`);
    const again = await ctx.http.send('serviceGetBaseServiceTemplate', { params: { _key: svc.key } });
    ctx.assert('OPS-TEMPLATE-BASE-GET', keyOf(again) === tpl.key, 'the link persists across reads', again);
  },
};
