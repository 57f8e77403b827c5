import { BASE_SERVICE_TEMPLATE, KPI_BASE_SEARCH, SERVICE, TEAM } from '../collections';
import { createIn, getIn, keyOf, ok, type OpsCheck } from '../support';

export const templatizeTypes: OpsCheck = {
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
      ctx.expect.that('OPS-CORE-TEMPLATIZE', `templatize of a ${c.type}`, dict, { expected: 'a success with a dictionary', actual: `${ex.status} ${ex.text.slice(0, 80)}` }, ex);
    }
    const { key } = await createIn(ctx, TEAM, 'Templatize team');
    if (!key) return ctx.untested('OPS-CORE-TEMPLATIZE-TYPES', 'could not create a team');
    const ex = await ctx.http.send('coreTemplatize', { params: { object_type: 'team', _key: key } });
    // Only service and kpi_base_search support it.
    ctx.expect.status('OPS-CORE-TEMPLATIZE-TYPES', ex, 'not 2xx', 'templatize of a team');
  },
};

export const templateLinkPersists: OpsCheck = {
  id: 'ops.service.base-service-template',
  title: "Linking a service to a template MUST persist, be readable with GET base_service_template, and append the template's entity rules",
  requirements: ['OPS-TEMPLATE-BASE-GET', 'OPS-TEMPLATE-BASE-LINK', 'OPS-TEMPLATE-APPEND-RULES'],
  async run(ctx) {
    const rule = (field: string) => ({ rule_condition: 'AND', rule_items: [{ field, field_type: 'alias', rule_type: 'matches', value: `${ctx.options.runTag}-${field}` }] });
    const tpl = await createIn(ctx, BASE_SERVICE_TEMPLATE, 'Link Template', { entity_rules: [rule('host')] });
    const svc = await createIn(ctx, SERVICE, 'Linked Service', { entity_rules: [rule('ip')] });
    if (!tpl.key || !svc.key) return ctx.untested('OPS-TEMPLATE-BASE-LINK', 'could not create the template and the service');
    const link = await ctx.http.send('serviceLinkBaseServiceTemplate', { params: { _key: svc.key }, body: { _key: tpl.key } });
    ctx.expect.that(
      'OPS-TEMPLATE-BASE-LINK',
      'linking the service to the template',
      ok(link) && typeof keyOf(link) === 'string',
      { expected: 'a success with a string _key', actual: `${link.status} ${link.text.slice(0, 80)}` },
      link,
    );
    const read = await ctx.http.send('serviceGetBaseServiceTemplate', { params: { _key: svc.key } });
    ctx.expect.equal('OPS-TEMPLATE-BASE-GET', 'GET base_service_template after linking: success and _key', { success: ok(read), _key: keyOf(read) }, { success: true, _key: tpl.key }, read);
    const service = (await getIn(ctx, SERVICE, svc.key)).json;
    const rules = JSON.stringify(service?.entity_rules ?? []);
    const appended =
      rules.includes(`${ctx.options.runTag}-ip`) && rules.includes(`${ctx.options.runTag}-host`) && rules.indexOf(`${ctx.options.runTag}-ip`) < rules.indexOf(`${ctx.options.runTag}-host`);
    ctx.expect.that('OPS-TEMPLATE-APPEND-RULES', "the service's entity_rules after linking", appended, {
      expected: `the service's own rule (${ctx.options.runTag}-ip), then the template's (${ctx.options.runTag}-host)`,
      actual: rules,
    });
    const again = await ctx.http.send('serviceGetBaseServiceTemplate', { params: { _key: svc.key } });
    ctx.expect.equal('OPS-TEMPLATE-BASE-GET', 'the _key of base_service_template on a second read', keyOf(again), tpl.key, again);
  },
};
