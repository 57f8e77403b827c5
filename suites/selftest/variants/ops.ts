import type { ApiHandler } from '../../../reference-impl/http/types';
import { loadOpsConfig, type OpsConfig } from '../../../reference-impl/ops/config';
import { mapRequest, mapResponse, withBody } from '../fault';
import type { Variant } from './stacks';

/** Keeps only the asked fields and `_key`, as a bare key-value store projection does. */
function strictProjection(inner: ApiHandler): ApiHandler {
  return async (req) => {
    const res = await inner(req);
    const fields = req.query.get('fields');
    if (req.method !== 'GET' || !fields || res.status !== 200 || !Array.isArray(res.body)) return res;
    const keep = new Set(['_key', ...fields.split(',').map((f) => f.trim())]);
    return {
      ...res,
      body: (res.body as Record<string, unknown>[]).map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => keep.has(k)))),
    };
  };
}

/** The fields the document lists for a maintenance window, with the common ones. */
const WINDOW_FIELDS = new Set([
  '_key',
  'title',
  'start_time',
  'end_time',
  'objects',
  'sec_grp_list',
  '_owner',
  'sec_grp',
  'description',
  'object_type',
]);

/** Keeps an identifying_name a client sends with a create as client data: reads give it as sent, whatever the title. */
function sentIdentifyingName(inner: ApiHandler): ApiHandler {
  const sent = new Map<string, unknown>();
  return async (req) => {
    const res = await inner(req);
    const body = req.body as Record<string, unknown> | undefined;
    if (
      req.method === 'POST' &&
      /\/itoa_interface\/(vLatest\/)?[a-z_]+$/.test(req.path) &&
      typeof body?.identifying_name === 'string' &&
      res.status === 200
    ) {
      const key = (res.body as { _key?: unknown })?._key;
      if (typeof key === 'string') sent.set(key, body.identifying_name);
    }
    if (req.method !== 'GET' || res.status !== 200 || !sent.size) return res;
    const rows = Array.isArray(res.body) ? res.body : [res.body];
    for (const r of rows)
      if (r && typeof r === 'object' && sent.has(String((r as Record<string, unknown>)._key)))
        (r as Record<string, unknown>).identifying_name = sent.get(String((r as Record<string, unknown>)._key));
    return res;
  };
}

/** Lists asked for without sort_key come in another order on every other read: they have none. */
function unsortedListsTurn(inner: ApiHandler): ApiHandler {
  let n = 0;
  const turn = <T>(xs: T[]) => (n % 2 ? [...xs].reverse() : xs);
  return async (req) => {
    const res = await inner(req);
    if (req.method !== 'GET' || req.query.has('sort_key') || res.status !== 200 || !res.body || typeof res.body !== 'object') return res;
    n++;
    if (Array.isArray(res.body)) return { ...res, body: turn(res.body) };
    const b = res.body as Record<string, unknown>;
    for (const member of ['result', 'success', 'linked_kpis'])
      if (Array.isArray(b[member])) return { ...res, body: { ...b, [member]: turn(b[member] as unknown[]) } };
    return res;
  };
}

/** The library with every service marked as having a dependency, as a preview may say of any of them. */
function dependentServices(): Partial<OpsConfig> {
  const seed = structuredClone(loadOpsConfig().seed);
  for (const pack of seed.contentPacks.packs) for (const o of pack.objects.services ?? []) o.has_dependency = true;
  return { seed };
}

/** An install naming one service of a pack installs the next service of that pack too, as what it depends on. */
function installsDependencies(inner: ApiHandler, config: OpsConfig): ApiHandler {
  return (req) => {
    const content = (req.body as { content?: Record<string, unknown> } | undefined)?.content;
    const named = Array.isArray(content?.service) ? (content.service as unknown[]) : undefined;
    if (req.method !== 'POST' || !/\/content_pack\/[^/]+\/[^/]+\/install$/.test(req.path) || !named || named.length !== 1)
      return inner(req);
    const pack = config.seed.contentPacks.packs.find((p) => (p.objects.services ?? []).some((o) => o.id === named[0]));
    const services = pack?.objects.services ?? [];
    const next = services[(services.findIndex((o) => o.id === named[0]) + 1) % services.length];
    if (!next || next.id === named[0]) return inner(req);
    return inner(withBody(req, { ...(req.body as Record<string, unknown>), content: { ...content, service: [named[0], next.id] } }));
  };
}

const AUTHORING = /\/itoa_interface\/(vLatest\/)?content_pack_authorship\/content_pack\/?/;

/** A pack created without a status has none until a client gives it one: reads leave it out. */
function packsWithoutStatus(inner: ApiHandler): ApiHandler {
  const bare = new Set<string>();
  return async (req) => {
    const res = await inner(req);
    const body = req.body as Record<string, unknown> | undefined;
    if (req.method === 'POST' && AUTHORING.test(req.path) && res.status === 200 && body && typeof body === 'object') {
      const key = String((res.body as { _key?: unknown })?._key);
      if (body.status === undefined) bare.add(key);
      else bare.delete(key);
    }
    if (req.method !== 'GET' || !AUTHORING.test(req.path) || res.status !== 200) return res;
    for (const r of Array.isArray(res.body) ? res.body : [res.body])
      if (r && typeof r === 'object' && bare.has(String((r as Record<string, unknown>)._key))) delete (r as Record<string, unknown>).status;
    return res;
  };
}

/** A queued or generating pack moves on a step by itself, right after a read has shown it so. */
function queuedPacksMoveOn(inner: ApiHandler): ApiHandler {
  return async (req) => {
    const res = await inner(req);
    const one = req.path.match(/content_pack_authorship\/content_pack\/([^/]+)$/);
    if (req.method !== 'GET' || !one || one[1] === 'count' || res.status !== 200) return res;
    const pack = res.body as Record<string, unknown>;
    const next = { Queued: 'Generating', Generating: 'Generated' }[String(pack?.status)];
    if (!next) return res;
    const moved = { ...pack, status: next };
    await inner({ ...req, method: 'POST', body: moved, rawBody: JSON.stringify(moved), bodyError: undefined });
    return res;
  };
}

export const opsVariants: Variant<OpsConfig>[] = [
  {
    id: 'authoring-fields-repeated',
    description: 'the authoring list reads "`fields` (array)" as the parameter repeated: a comma in one value is part of a field name',
    wrap: mapRequest(
      (r) => r.method === 'GET' && /\/content_pack_authorship\/content_pack\/?$/.test(r.path) && r.query.has('fields'),
      (r) => {
        const query = new URLSearchParams(r.query);
        const names = r.query.getAll('fields').map((f) => (f.includes(',') ? '(no such field)' : f));
        query.set('fields', names.join(','));
        return { ...r, query };
      },
    ),
  },
  {
    id: 'create-ignores-key',
    description:
      'POST <object_type> with the _key of an existing object creates another object under a key of its own ("the created or updated object")',
    wrap: mapRequest(
      (r) =>
        r.method === 'POST' &&
        /\/itoa_interface\/(vLatest\/)?[a-z_]+$/.test(r.path) &&
        !/\/get_/.test(r.path) &&
        typeof (r.body as { _key?: unknown })?._key === 'string',
      (r) => {
        const { _key: _, ...rest } = r.body as Record<string, unknown>;
        return withBody(r, rest);
      },
    ),
  },
  {
    id: 'untitled-create-not-kept',
    description: 'a service create without a title (outside the documented shape) answers a key under which nothing is stored',
    wrap: (inner) => (req) =>
      req.method === 'POST' &&
      /\/itoa_interface\/(vLatest\/)?service$/.test(req.path) &&
      req.body &&
      typeof req.body === 'object' &&
      !('title' in req.body)
        ? Promise.resolve({ status: 200, body: { _key: 'untitled-not-kept' } })
        : inner(req),
  },
  {
    id: 'pack-without-status',
    description: 'a custom content pack created without a status has none until a client gives it one',
    wrap: packsWithoutStatus,
  },
  {
    id: 'queued-packs-move-on',
    description: 'a queued or generating custom content pack moves on a step by itself once a read has shown it',
    wrap: queuedPacksMoveOn,
  },
  {
    id: 'cp-install-brings-dependencies',
    description: 'every service a preview lists has a dependency, and an install naming one installs the service it depends on too',
    config: dependentServices(),
    wrap: installsDependencies,
  },
  {
    id: 'cp-failures-stamped',
    description: 'each content-pack load failure carries the time of the read that reported it',
    wrap: (() => {
      let reads = 0;
      return mapResponse(
        (req, res) =>
          req.method === 'GET' &&
          /\/itoa_interface\/(vLatest\/)?content_pack$/.test(req.path) &&
          res.status === 200 &&
          Array.isArray((res.body as { failure?: unknown })?.failure),
        (res) => {
          const b = res.body as { failure: Record<string, unknown>[] };
          reads++;
          return { ...res, body: { ...b, failure: b.failure.map((f) => ({ ...f, checked_at: 1_700_000_000 + reads })) } };
        },
      );
    })(),
  },
  {
    id: 'service-default-entity-rule',
    description: 'a service created without entity_rules gets a default rule of the server (matching no entity)',
    wrap: mapRequest(
      (req) =>
        req.method === 'POST' &&
        /\/itoa_interface\/(vLatest\/)?service$/.test(req.path) &&
        !!req.body &&
        typeof req.body === 'object' &&
        !Array.isArray(req.body) &&
        !('entity_rules' in req.body),
      (req) =>
        withBody(req, {
          ...(req.body as Record<string, unknown>),
          entity_rules: [
            { rule_condition: 'AND', rule_items: [{ field: 'cf_default', field_type: 'alias', rule_type: 'matches', value: 'none' }] },
          ],
        }),
    ),
  },
  {
    id: 'unsorted-lists-turn',
    description: 'lists asked for without sort_key come in reverse order on every other read',
    wrap: unsortedListsTurn,
  },
  {
    id: 'identifying-name-as-sent',
    description: 'an identifying_name a client sends is kept as sent, also after a rename',
    wrap: sentIdentifyingName,
    warns: ['OPS-COMMON-IDENTIFYING-NAME-SENT'],
  },
  {
    id: 'ctw-stop-time-finer',
    description: 'stop answers last_stopped_time with the fraction of its clock, while reads give the stored whole seconds',
    wrap: mapResponse(
      (req, res) => req.method === 'POST' && /\/custom_threshold_windows\/[^/]+\/stop$/.test(req.path) && res.status === 200,
      (res) => {
        const w = res.body as Record<string, unknown>;
        return typeof w?.last_stopped_time === 'number' ? { ...res, body: { ...w, last_stopped_time: w.last_stopped_time + 0.25 } } : res;
      },
    ),
  },
  {
    id: 'window-create-keeps-listed-fields',
    description: 'a maintenance window create keeps only the fields the document lists (a full update writes the others)',
    wrap: mapRequest(
      (req) =>
        req.method === 'POST' &&
        /\/maintenance_calendar$/.test(req.path) &&
        !!req.body &&
        typeof req.body === 'object' &&
        !Array.isArray(req.body),
      (req) => withBody(req, Object.fromEntries(Object.entries(req.body as Record<string, unknown>).filter(([k]) => WINDOW_FIELDS.has(k)))),
    ),
  },
  {
    id: 'refusals-without-error',
    description:
      'a list read without valid credentials answers 200 with no rows, and a bulk update skips the objects the caller may not write and answers 200 with the keys it updated (none)',
    wrap: mapResponse(
      (req, res) =>
        (req.method === 'GET' && res.status === 401 && /\/itoa_interface\/(?!get_)[a-z_]+$/.test(req.path)) ||
        (req.method === 'POST' && /\/bulk_update$/.test(req.path) && (res.status === 401 || res.status === 403)),
      (_, req) => ({ status: 200, body: req.method === 'GET' ? [] : { _key: [] } }),
    ),
  },
  { id: 'strict-projection', description: '`fields` returns only the asked fields and _key', wrap: strictProjection },
  {
    id: 'padded-json',
    description: 'every JSON body is preceded by a long run of white space and a newline, as seen in the field',
    wrap: mapResponse(
      (_, res) => res.body !== undefined && res.status !== 204,
      (res) => ({ ...res, rawBody: `${' '.repeat(2048)}\n${JSON.stringify(res.body)}` }),
    ),
  },
  {
    id: 'created-201-deleted-200',
    description: 'creates answer 201, deletes 200 with an empty body',
    wrap: mapResponse(
      (req, res) =>
        (req.method === 'POST' &&
          res.status === 200 &&
          typeof (res.body as { _key?: unknown })?._key === 'string' &&
          !/\/(bulk_update|retire|restore|install|refresh|stop|associate_service_kpi|disconnect_kpis|base_service_template)$/.test(
            req.path,
          )) ||
        (req.method === 'DELETE' && res.status === 204),
      (res, req) => (req.method === 'DELETE' ? { status: 200 } : { ...res, status: 201 }),
    ),
  },
  {
    id: 'platform-error-bodies',
    description: 'errors come as {"messages": [{type, text}]}, unknown keys as 400 in the older (400, ...) form',
    wrap: mapResponse(
      (_, res) => res.status >= 400,
      (res) => ({
        status: res.status === 404 ? 400 : res.status,
        body: {
          messages: [{ type: 'ERROR', text: `(${res.status}, '${String((res.body as { message?: string })?.message ?? 'error')}')` }],
        },
      }),
    ),
  },
];
