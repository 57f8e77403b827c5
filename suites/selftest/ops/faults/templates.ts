import type { ApiHandler, ApiRequest, ApiResponse } from '../../../../reference-impl/http/types';
import { badRequest } from '../../../../reference-impl/ops/errors';
import { mapResponse, withBody } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import type { Doc } from '../../../core/json';

const ITOA = 'itoa_interface';
const segs = (r: ApiRequest) => opsPath(r.path, ITOA);
const ok = (res: ApiResponse) => res.status < 300;
const isTemplatize = (r: ApiRequest) => r.method === 'GET' && segs(r)?.length === 3 && segs(r)![2] === 'templatize';
const isLink = (method: string) => (r: ApiRequest) =>
  r.method === method && segs(r)?.length === 3 && segs(r)![0] === 'service' && segs(r)![2] === 'base_service_template';

/** A second request to the implementation, as the same caller. */
function call(inner: ApiHandler, req: ApiRequest, method: string, parts: string[], query: Record<string, string> = {}, body?: unknown) {
  const base = req.path.slice(0, req.path.indexOf(`/${ITOA}`) + ITOA.length + 1);
  const sub: ApiRequest = {
    ...req,
    method,
    path: `${base}/${parts.map(encodeURIComponent).join('/')}`,
    query: new URLSearchParams(query),
    body: undefined,
    rawBody: '',
  };
  return inner(body === undefined ? sub : withBody(sub, body));
}

const read = async (inner: ApiHandler, req: ApiRequest, type: string, key: unknown): Promise<Doc | undefined> => {
  const res = await call(inner, req, 'GET', [type, String(key)]);
  return ok(res) ? (res.body as Doc) : undefined;
};
const rulesOf = (d: Doc | undefined) => (Array.isArray(d?.entity_rules) ? (d.entity_rules as unknown[]) : []);

/** Links through the implementation, then rewrites the service's entity rules from (own rules, template rules). */
const linkThenRules = (rules: (own: unknown[], template: unknown[]) => unknown[]) => (inner: ApiHandler) => async (req: ApiRequest) => {
  if (!isLink('POST')(req)) return inner(req);
  const key = segs(req)![1];
  const own = rulesOf(await read(inner, req, 'service', key));
  const template = rulesOf(await read(inner, req, 'base_service_template', (req.body as Doc | undefined)?._key));
  const res = await inner(req);
  if (ok(res)) await call(inner, req, 'POST', ['service', key], { is_partial_data: '1' }, { entity_rules: rules(own, template) });
  return res;
};

export const templatesFaults: OpsFault[] = [
  {
    id: 'templatize-any-type',
    description: 'templatize answers a template for every object type, not only service and kpi_base_search',
    breaks: ['OPS-CORE-TEMPLATIZE-TYPES'],
    only: ['ops.core.templatize'],
    wrap: (inner) => async (req) => {
      if (!isTemplatize(req) || ['service', 'kpi_base_search'].includes(segs(req)![0])) return inner(req);
      const [type, key] = segs(req)!;
      const doc = await read(inner, req, type, key);
      return doc ? { status: 200, body: { ...doc, object_type: 'base_service_template' } } : inner(req);
    },
  },
  {
    id: 'templatize-service-only',
    description: 'templatize refuses kpi_base_search',
    breaks: ['OPS-CORE-TEMPLATIZE'],
    only: ['ops.core.templatize'],
    wrap: (inner) => (req) =>
      isTemplatize(req) && segs(req)![0] === 'kpi_base_search' ? badRequest('templatize is supported only for service') : inner(req),
  },
  {
    id: 'templatize-drops-kpis',
    description: "the template of a service carries an empty kpis array instead of the service's KPIs",
    breaks: ['OPS-TEMPLATE-EXPORT-KPIS'],
    only: ['ops.core.templatize'],
    wrap: (inner) => async (req) => {
      const res = await inner(req);
      if (!isTemplatize(req) || segs(req)![0] !== 'service' || res.status !== 200) return res;
      return { ...res, body: { ...(res.body as Record<string, unknown>), kpis: [] } };
    },
  },
  {
    id: 'template-link-not-persisted',
    description: 'linking a service to a template answers {_key} without storing the link or the rules',
    breaks: ['OPS-TEMPLATE-BASE-GET', 'OPS-TEMPLATE-APPEND-RULES'],
    only: ['ops.service.base-service-template'],
    wrap: (inner) => async (req) => {
      if (!isLink('POST')(req)) return inner(req);
      const key = segs(req)![1];
      const found =
        (await read(inner, req, 'service', key)) && (await read(inner, req, 'base_service_template', (req.body as Doc | undefined)?._key));
      return found ? { status: 200, body: { _key: key } } : inner(req);
    },
  },
  {
    id: 'template-link-replaces-rules',
    description: "linking replaces the service's entity rules with the template's instead of appending them",
    breaks: ['OPS-TEMPLATE-APPEND-RULES'],
    only: ['ops.service.base-service-template'],
    wrap: linkThenRules((_, template) => template),
  },
  {
    id: 'template-link-keeps-own-rules',
    description: "linking keeps the service's own entity rules and adds none of the template's",
    breaks: ['OPS-TEMPLATE-APPEND-RULES'],
    only: ['ops.service.base-service-template'],
    wrap: linkThenRules((own) => own),
  },
  {
    id: 'template-link-prepends-rules',
    description: "linking puts the template's entity rules before the service's own",
    breaks: ['OPS-TEMPLATE-APPEND-RULES'],
    only: ['ops.service.base-service-template'],
    wrap: linkThenRules((own, template) => [...template, ...own]),
  },
  {
    id: 'template-get-answers-service-key',
    description: 'GET service/<_key>/base_service_template answers the service key instead of the template key',
    breaks: ['OPS-TEMPLATE-BASE-GET'],
    only: ['ops.service.base-service-template'],
    wrap: mapResponse(
      (r, res) => isLink('GET')(r) && ok(res),
      (res, r) => ({ ...res, body: { _key: segs(r)![1] } }),
    ),
  },
  {
    id: 'template-link-answers-empty',
    description: 'linking a service to a template answers an empty body instead of {_key}',
    breaks: ['OPS-TEMPLATE-BASE-LINK'],
    only: ['ops.service.base-service-template'],
    wrap: mapResponse(
      (r, res) => isLink('POST')(r) && ok(res),
      () => ({ status: 204 }),
    ),
  },
];
