import { compact } from '../../core/expect';
import { asDoc, isDoc } from '../../core/json';
import type { Exchange } from '../../core/types';
import { BASE_SERVICE_TEMPLATE, KPI_BASE_SEARCH, SERVICE, TEAM, type Collection } from '../collections';
import { createIn, createNeeded, getIn, keyOf, lackingFields, ok, tagged, type Doc, type OpsCheck, type OpsContext } from '../support';

const EXPORT_FIELDS = [
  'title',
  'service_template_id',
  'sec_grp',
  'object_type',
  '_version',
  'enabled',
  'services_depends_on',
  'tags',
  'serviceTemplateId',
  'kpis',
];

/**
 * "Service template export": the template of a service holds its KPIs, at least the ones the client gave it. Not
 * those it reads back with: a server adds KPIs of its own (a health score) that it may leave out of a template.
 */
function exportsItsKpis(ctx: OpsContext, sent: unknown[], kpis: unknown[], ex: Exchange): void {
  ctx.expect.that(
    'OPS-TEMPLATE-EXPORT-KPIS',
    'KPI objects of the template of a service, against the KPIs it was created with',
    kpis.filter(isDoc).length >= sent.length,
    { expected: `at least ${sent.length} (${sent.map((k) => compact(asDoc(k).title)).join(', ')})`, actual: compact(kpis) },
    ex,
  );
}

export const templatizeTypes: OpsCheck = {
  id: 'ops.core.templatize',
  title: 'templatize MUST answer a template dictionary for service and kpi_base_search, and MUST NOT for other types',
  requirements: [
    'OPS-CORE-TEMPLATIZE',
    'OPS-CORE-TEMPLATIZE-TYPES',
    'OPS-TEMPLATE-EXPORT-FIELDS',
    'OPS-TEMPLATE-POLICIES',
    'OPS-TEMPLATE-EXPORT-KPIS',
  ],
  async run(ctx) {
    // A service with a KPI that carries nothing but its title: the template must still be made of it.
    const cases: [Collection, string, Doc][] = [
      [SERVICE, 'service', {}],
      [SERVICE, 'service with a KPI', { kpis: [{ title: tagged(ctx, 'templatize kpi') }] }],
      [KPI_BASE_SEARCH, 'kpi_base_search', {}],
    ];
    for (const [c, what, extra] of cases) {
      const { key, ex: made } = await createIn(ctx, c, `Templatize ${what}`, extra);
      if (!key) {
        if (Object.keys(extra).length)
          ctx.observe('OPS-CORE-TEMPLATIZE', `a ${what} could not be created (${made.status}): not templatized`);
        else ctx.untested('OPS-CORE-TEMPLATIZE', `could not create a ${c.type}`);
        continue;
      }
      const ex = await ctx.http.send('coreTemplatize', { params: { object_type: c.type, _key: key } });
      const dict = ok(ex) && ex.json !== null && typeof ex.json === 'object' && !Array.isArray(ex.json);
      ctx.expect.that(
        'OPS-CORE-TEMPLATIZE',
        `templatize of a ${what}`,
        dict,
        { expected: 'a success with a dictionary', actual: `${ex.status} ${ex.text.slice(0, 80)}` },
        ex,
      );
      if (!dict || c !== SERVICE) continue;
      // The fields the document lists for a service template, and the threshold policies of its KPIs.
      const template = ex.json as Doc;
      ctx.expect.equal(
        'OPS-TEMPLATE-EXPORT-FIELDS',
        `fields listed for a service template that the template of a ${what} lacks`,
        lackingFields(template, EXPORT_FIELDS),
        [],
        ex,
      );
      const kpis: unknown[] = Array.isArray(template.kpis) ? template.kpis : [];
      if (Array.isArray(extra.kpis)) exportsItsKpis(ctx, extra.kpis, kpis, ex);
      const spec = (k: unknown) => (isDoc(k) ? k.time_variate_thresholds_specification : undefined);
      const unshaped = kpis.filter(
        (k) => spec(k) !== undefined && !(isDoc(spec(k)) && isDoc(asDoc(spec(k)).policies) && Array.isArray(asDoc(spec(k)).time_blocks)),
      );
      ctx.expect.equal(
        'OPS-TEMPLATE-POLICIES',
        `KPIs of the template of a ${what} whose time_variate_thresholds_specification is not {policies, time_blocks}`,
        unshaped,
        [],
        ex,
      );
    }
    const { key, ex: refused } = await createIn(ctx, TEAM, 'Templatize team');
    // Not Unmet: the template requirements above may have been left unjudged, for reasons of their own.
    if (!key) return ctx.untested('OPS-CORE-TEMPLATIZE-TYPES', `could not create a team (${refused.status})`, refused);
    const ex = await ctx.http.send('coreTemplatize', { params: { object_type: 'team', _key: key } });
    // Only service and kpi_base_search support it.
    ctx.expect.status('OPS-CORE-TEMPLATIZE-TYPES', 'templatize of a team', ex, 'not 2xx');
  },
};

/** An entity rule matching one alias field, with a value of the run's own. */
const entityRule = (ctx: OpsContext, field: string) => ({
  rule_condition: 'AND',
  rule_items: [{ field, field_type: 'alias', rule_type: 'matches', value: `${ctx.options.runTag}-${field}` }],
});

/** The entity rules of a service as read: how many, and the values of their items. */
async function ruleValues(ctx: OpsContext, key: string) {
  const got = await getIn(ctx, SERVICE, key);
  const list: unknown[] = Array.isArray(got.json?.entity_rules) ? got.json.entity_rules : [];
  return {
    got,
    found: {
      rules: list.length,
      values: list.map((r) => (isDoc(r) && Array.isArray(r.rule_items) ? r.rule_items.map((i) => (isDoc(i) ? i.value : i)) : r)),
    },
  };
}

// Against the rules each side holds as read: a server may give a new service or template rules of its own (what a
// create without entity_rules holds is not said); linking appends the template's to the service's.
async function templateRules(ctx: OpsContext, key: string) {
  const got = await getIn(ctx, BASE_SERVICE_TEMPLATE, key);
  const list: unknown[] = Array.isArray(got.json?.entity_rules) ? got.json.entity_rules : [];
  return list.map((r) => (isDoc(r) && Array.isArray(r.rule_items) ? r.rule_items.map((i) => (isDoc(i) ? i.value : i)) : r));
}

const joined = (service: { rules: number; values: unknown[] }, template: unknown[]) => ({
  rules: service.rules + template.length,
  values: [...service.values, ...template],
});

/**
 * The same rules at their edges: a service without rules takes exactly the template's, a template without rules
 * leaves a service's as they were. Returns the bare service and the plain template, or undefined when the check
 * cannot go on to move a link.
 */
async function linkEdges(ctx: OpsContext, tplKey: string): Promise<{ bare: string; plain: string } | undefined> {
  const bare = await createIn(ctx, SERVICE, 'Linked Bare Service');
  const plain = await createIn(ctx, BASE_SERVICE_TEMPLATE, 'Plain Template');
  if (!bare.key || !plain.key) return;
  const bareBefore = await ruleValues(ctx, bare.key);
  const tplRules = await templateRules(ctx, tplKey);
  const linkBare = await ctx.http.send('serviceLinkBaseServiceTemplate', { params: { _key: bare.key }, body: { _key: tplKey } });
  if (!ctx.expect.status('OPS-TEMPLATE-BASE-LINK', 'linking a service without entity_rules to the template', linkBare, '2xx')) return;
  const first = await ruleValues(ctx, bare.key);
  ctx.expect.equal(
    'OPS-TEMPLATE-APPEND-RULES',
    'entity_rules of a service created without any, linked to the template',
    first.found,
    joined(bareBefore.found, tplRules),
    first.got,
  );
  const ruled = await createIn(ctx, SERVICE, 'Linked Ruled Service', { entity_rules: [entityRule(ctx, 'ip')] });
  if (ruled.key) {
    const ruledBefore = await ruleValues(ctx, ruled.key);
    const plainRules = await templateRules(ctx, plain.key);
    const linkRuled = await ctx.http.send('serviceLinkBaseServiceTemplate', { params: { _key: ruled.key }, body: { _key: plain.key } });
    const kept = await ruleValues(ctx, ruled.key);
    if (ctx.expect.status('OPS-TEMPLATE-BASE-LINK', 'linking a service with one rule to a template without entity_rules', linkRuled, '2xx'))
      ctx.expect.equal(
        'OPS-TEMPLATE-APPEND-RULES',
        'entity_rules of a service with one rule, linked to a template created without rules',
        kept.found,
        joined(ruledBefore.found, plainRules),
        kept.got,
      );
  }
  return { bare: bare.key, plain: plain.key };
}

/** Linking the linked service `bare` to the second template `plain` moves the link, where it is accepted. */
async function relinkMoves(ctx: OpsContext, { bare, plain }: { bare: string; plain: string }, readsLink: boolean): Promise<void> {
  // Moving a linked service to another template may be refused; a success must move the link (judged only where
  // GET base_service_template was seen to answer a link, so that its own fault is not charged to the link).
  if (!readsLink) return;
  const relink = await ctx.http.send('serviceLinkBaseServiceTemplate', { params: { _key: bare }, body: { _key: plain } });
  if (!ok(relink))
    return ctx.observe(
      'OPS-TEMPLATE-BASE-LINK',
      `linking a linked service to a second template answered ${relink.status} ${relink.text.slice(0, 80)}`,
    );
  const moved = await ctx.http.send('serviceGetBaseServiceTemplate', { params: { _key: bare } });
  ctx.expect.equal(
    'OPS-TEMPLATE-BASE-LINK',
    'the _key of base_service_template after a successful link to a second template',
    keyOf(moved),
    plain,
    moved,
  );
}

export const templateLinkPersists: OpsCheck = {
  id: 'ops.service.base-service-template',
  title: "Linking a service to a template MUST persist, be readable with GET base_service_template, and append the template's entity rules",
  requirements: ['OPS-TEMPLATE-BASE-GET', 'OPS-TEMPLATE-BASE-LINK', 'OPS-TEMPLATE-APPEND-RULES'],
  async run(ctx) {
    const tpl = await createNeeded(ctx, BASE_SERVICE_TEMPLATE, 'Link Template', { entity_rules: [entityRule(ctx, 'host')] });
    const svc = await createNeeded(ctx, SERVICE, 'Linked Service', { entity_rules: [entityRule(ctx, 'ip')] });
    const link = await ctx.http.send('serviceLinkBaseServiceTemplate', { params: { _key: svc.key }, body: { _key: tpl.key } });
    ctx.expect.that(
      'OPS-TEMPLATE-BASE-LINK',
      'linking the service to the template',
      ok(link) && typeof keyOf(link) === 'string',
      { expected: 'a success with a string _key', actual: `${link.status} ${link.text.slice(0, 80)}` },
      link,
    );
    const read = await ctx.http.send('serviceGetBaseServiceTemplate', { params: { _key: svc.key } });
    ctx.expect.equal(
      'OPS-TEMPLATE-BASE-GET',
      'GET base_service_template after linking: success and _key',
      { success: ok(read), _key: keyOf(read) },
      { success: true, _key: tpl.key },
      read,
    );
    const service = (await getIn(ctx, SERVICE, svc.key)).json;
    const rules = JSON.stringify(service?.entity_rules ?? []);
    const appended =
      rules.includes(`${ctx.options.runTag}-ip`) &&
      rules.includes(`${ctx.options.runTag}-host`) &&
      rules.indexOf(`${ctx.options.runTag}-ip`) < rules.indexOf(`${ctx.options.runTag}-host`);
    ctx.expect.that('OPS-TEMPLATE-APPEND-RULES', "the service's entity_rules after linking", appended, {
      expected: `the service's own rule (${ctx.options.runTag}-ip), then the template's (${ctx.options.runTag}-host)`,
      actual: rules,
    });
    const again = await ctx.http.send('serviceGetBaseServiceTemplate', { params: { _key: svc.key } });
    const readsLink = ctx.expect.equal(
      'OPS-TEMPLATE-BASE-GET',
      'the _key of base_service_template on a second read',
      keyOf(again),
      tpl.key,
      again,
    );

    // The same rules at their edges, then linking to a second template moves the link.
    const edges = await linkEdges(ctx, tpl.key);
    if (edges) await relinkMoves(ctx, edges, readsLink);
  },
};
