import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { ApiHandler } from '../../../reference-impl/http/types';
import { loadOpsConfig, type OpsConfig } from '../../../reference-impl/ops/config';
import { createOpsHandler } from '../../../reference-impl/ops/handler';
import { callHandler, getRequest } from './api-request';
import { contentType, deepObjectText, extraHeaders, longIdList, oddShortString, oddString, oddValue } from './hostile';
import { loadOperations, segmentValue, type Resolve, type SegmentPlan, type SpecOperation } from './spec-operations';

export const OPS_CONFIG: OpsConfig = loadOpsConfig();
export const OPS_OPERATIONS: SpecOperation[] = loadOperations('specs/ops.openapi.yaml');

export const ITOA = '/servicesNS/nobody/SA-ITOA/itoa_interface';
export const EVENTS = '/servicesNS/nobody/SA-ITOA/event_management_interface';
export const MAINTENANCE = '/servicesNS/nobody/SA-ITOA/maintenance_services_interface';
const BACKUP = '/servicesNS/nobody/SA-ITOA/backup_restore_interface';
export const ICONS = '/services/SA-ITOA/v1/icon_collection';
export const INTERFACES = ['itoa_interface', 'event_management_interface', 'maintenance_services_interface', 'backup_restore_interface'];

export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const userNamed = (name: string) => OPS_CONFIG.users.find((u) => u.name === name)!;
export const ADMIN = basic('admin', userNamed('admin').password);
export const ANALYST = basic('analyst', userNamed('analyst').password);

/** Authorization header variants, or undefined to send none. */
const opsCredential: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(ADMIN) },
  { weight: 2, arbitrary: fc.constant(ANALYST) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      basic('admin', 'wrong'),
      basic('admin', `${userNamed('admin').password} `),
      basic('ADMIN', userNamed('admin').password),
      basic('nobody', 'x'),
      basic('analyst', userNamed('admin').password),
      basic('admin:', userNamed('admin').password),
      `basic ${ADMIN.slice(6)}`,
      `Basic  ${ADMIN.slice(6)}  `,
      'Basic',
      'Basic =',
      'Basic YWRtaW4',
      'Basic !!!!',
      `Basic ${Buffer.from('admin').toString('base64')}`,
      `Bearer ${ADMIN.slice(6)}`,
      `Basic ${'A'.repeat(4001)}`,
      `Basic ${Buffer.from(`admin:${userNamed('admin').password}\u0000`).toString('base64')}`,
    ),
  },
);

const seed = OPS_CONFIG.seed;
const keysOf = (type: string): string[] => (Object.hasOwn(seed.objects, type) ? seed.objects[type]! : []).map((d) => String(d._key));
const allKeys: string[] = Object.values(seed.objects).flatMap((docs) => docs.map((d) => String(d._key)));
const titles = Object.values(seed.objects)
  .flatMap((docs) => docs.map((d) => d.title))
  .filter((t): t is string => typeof t === 'string');

/** Event-management object types: the fixture's stored types that belong to no other interface. */
const NOT_EVENT = new Set(['maintenance_calendar', 'backup_restore', 'external_ticket', 'content_pack']);
const coreTypes = (OPS_OPERATIONS.find((o) => o.operationId === 'coreList')?.pathParams.find((p) => p.name === 'object_type')?.enum ??
  []) as string[];
const CORE_TYPES: string[] = coreTypes;
const EVENT_TYPES: string[] = Object.keys(seed.objects).filter((t) => !NOT_EVENT.has(t) && !coreTypes.includes(t));

const EPISODES = keysOf('notable_event_group');
const packs = seed.contentPacks.packs;
const actions = seed.episodeActions.map((a) => a.entry.action_name);
const iconKeys = seed.icons.map((i) => String(i._key));
const categories = [...seed.iconCategories.map((c) => c.name), 'Conformance', '*'];
const tickets = (seed.objects.external_ticket ?? []).flatMap(
  (l) => (Array.isArray(l.tickets) ? l.tickets : []) as { ticket_system: string; ticket_id: string; ticket_url: string }[],
);

/** Keys of the object type named by the segment before a key, any fixture key otherwise. */
export const resolveOps: Resolve = (ref, index, previous) => {
  if (ref === 'key') {
    const pool =
      previous === 'icon_collection' ? iconKeys : previous !== undefined && keysOf(previous).length > 0 ? keysOf(previous) : allKeys;
    return pool[index % pool.length]!;
  }
  if (ref === 'version') {
    const pack = packs.find((p) => p.id === previous);
    return pack?.version ?? packs[index % packs.length]!.version;
  }
  if (ref === 'ticket_id') return tickets.find((t) => t.ticket_system === previous)?.ticket_id ?? tickets[0]?.ticket_id ?? 'INC0';
  return '';
};

const known = (values: readonly string[]) => fc.constantFrom(...values);
const ref = (name: string) => fc.nat(20).map((index) => ({ ref: name, index }));

/** Values of a path parameter of the ops spec, mostly real ones. */
export function opsPathValue(param: string, op: SpecOperation): fc.Arbitrary<SegmentPlan> {
  const spec = op.pathParams.find((p) => p.name === param);
  const enumValues = (spec?.enum ?? []) as string[];
  const real = (() => {
    switch (param) {
      case 'user':
        return known(['nobody', 'nobody', 'admin', 'analyst']);
      case 'app':
        return known(['SA-ITOA', 'SA-ITOA', 'search']);
      case 'object_type':
        return known(enumValues.length > 0 ? enumValues : [...EVENT_TYPES, 'external_ticket', 'notable_event_actions']);
      case '_key':
        return ref('key');
      case 'name':
        return known(packs.map((p) => p.id));
      case 'version':
        return ref('version');
      case 'content_pack_id':
        return known([...keysOf('content_pack'), 'count']);
      case 'object_id':
        return known([...keysOf('custom_threshold_windows'), 'linked_kpis']);
      case 'action_name':
        return known(actions);
      case 'event_key':
      case 'episode_id':
        return known([...EPISODES, 'ep_unknown', 'ep_web_latency,ep_db_errors']);
      case 'ticket_system':
        return known([...new Set(tickets.map((t) => t.ticket_system)), 'ServiceNow']);
      case 'ticket_id':
        return ref('ticket_id');
      default:
        return enumValues.length > 0 ? known(enumValues) : oddShortString;
    }
  })();
  return segmentValue(real, oddShortString);
}

const FIELDS = [
  'title',
  '_key',
  'description',
  'sec_grp',
  'identifying_name',
  'mod_timestamp',
  'a.b',
  'services._key',
  '__proto__',
  'constructor',
];

const filterText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{"title":{"$regex":"(a+)+$"}}',
    '{"title":{"$regex":"^(a|aa)+$","$options":"i"}}',
    '{"title":{"$regex":"[","$options":"z"}}',
    '{"title":{"$regex":"x","$options":"ix"}}',
    '{"$where":"while(true){}"}',
    '{"$expr":{"$gt":[{"$strLenCP":"$title"},1]}}',
    '{"$jsonSchema":{}}',
    '{"title":{"$ne":null}}',
    '{"sec_grp":"team_network"}',
    '{"$or":[]}',
    '{"$and":[{"title":{"$exists":true}},{"_key":{"$in":["ent_web_01"]}}]}',
    '{"title":{"$type":"nonsense"}}',
    '{"__proto__":{"title":"x"}}',
    '{"a.b.c":{"$elemMatch":{"$gt":1}}}',
    '{"title":{"$not":{"$regex":"^web"}}}',
    '[]',
    'null',
    '{',
    '',
  ),
  fc.tuple(fc.constantFrom(...FIELDS), fc.oneof(known(titles), known(allKeys), oddShortString)).map(([f, v]) => JSON.stringify({ [f]: v })),
  fc.constant(null).map(() => deepObjectText()),
);

/** Values of a query parameter, by name. */
export function opsQueryValue(name: string): fc.Arbitrary<string> {
  const base = name.replace(/\[\]$/, '').trim().toLowerCase();
  const real = (() => {
    switch (base) {
      case 'filter':
      case 'filter_data':
        return filterText;
      case 'sort_key':
        return known(FIELDS);
      case 'sort_dir':
        return known(['1', '0', '-1', 'asc', 'desc', 'des', '2']);
      case 'limit':
      case 'offset':
      case 'skip':
      case 'count':
        return known(['0', '1', '2', '10', '-1', '1.5', '1e3', '99999999999999999999999', ' 3 ']);
      case 'fields':
        return known(['_key,title', 'title', '__proto__,constructor', 'a.b.c', '["title","_key"]', '[', ',,,']);
      case 'is_partial_data':
      case 'list_categories':
      case 'is_event_id':
        return known(['1', '0', 'true', 'false', 'yes', '']);
      case 'category':
        return known(categories);
      case 'ctw_id':
      case 'custom_threshold_window_id':
        return known(keysOf('custom_threshold_windows'));
      case 'ids':
        return fc.oneof(
          { weight: 20, arbitrary: known([...EPISODES, EPISODES.join(',')]) },
          { weight: 1, arbitrary: fc.constant(null).map(() => longIdList()) },
        );
      case 'ticket_system':
      case 'ticket_id':
      case 'ticket_url':
        return known(tickets.map((t) => t[base as 'ticket_system']));
      case 'status':
        return known(['Draft', 'Queued', 'Generated', 'draft']);
      case 'output_mode':
        return known(['json', 'xml']);
      default:
        return known(titles);
    }
  })();
  return fc.oneof({ weight: 3, arbitrary: real }, { weight: 1, arbitrary: oddShortString });
}

export const OPS_QUERY_NAMES = [
  'filter',
  'filter_data',
  'sort_key',
  'sort_dir',
  'limit',
  'offset',
  'skip',
  'count',
  'fields',
  'is_partial_data',
  'list_categories',
  'category',
  'ctw_id',
  'ids',
  'status',
  'search',
  'is_event_id',
  '__proto__',
];

/** Strings bodies carry: real keys and titles, odd text. */
const bodyString = fc.oneof(
  { weight: 2, arbitrary: known(allKeys) },
  { weight: 1, arbitrary: known(titles) },
  { weight: 3, arbitrary: oddString },
);

const BODY_FIELDS = [
  'title',
  '_key',
  'description',
  'sec_grp',
  'sec_grp_list',
  'data',
  'services',
  'ids',
  'params',
  'id',
  'ticket_system',
  'ticket_id',
  'ticket_url',
  'content',
  'resolution',
  'enabled',
  'prefix',
  'backfill',
  'start_time',
  'end_time',
  'objects',
  'status',
  'job_type',
  'rules',
  'svg_path',
  'category',
  'default_width',
  'default_height',
  'comment',
  'event_id',
  'tag_name',
  'apps_added',
  'apps_removed',
  'ops_objects',
  'platform_objects',
  'user_selected_objects',
  'metadata',
  'retirable',
  'kpis',
  'entity_rules',
  'identifier',
  '__proto__',
  'constructor',
  'prototype',
];

const genericRecord = fc.dictionary(
  fc.oneof({ weight: 5, arbitrary: known(BODY_FIELDS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }),
  oddValue(bodyString),
  { maxKeys: 5 },
);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Bodies close to what `op` takes: its spec examples, examples with one member changed, and generic objects. */
export function plausibleOpsBody(op: SpecOperation): fc.Arbitrary<Record<string, unknown> | unknown[]> {
  const examples = op.bodyExamples.filter((e): e is Record<string, unknown> | unknown[] => typeof e === 'object' && e !== null);
  const generic = fc.oneof({ weight: 4, arbitrary: genericRecord }, { weight: 1, arbitrary: fc.array(genericRecord, { maxLength: 3 }) });
  if (examples.length === 0) return generic;
  const example = known(examples.map((e) => JSON.stringify(e))).map((t) => JSON.parse(t) as Record<string, unknown> | unknown[]);
  const changed = fc.tuple(example, fc.nat(), oddValue(bodyString)).map(([e, i, v]) => {
    const target = Array.isArray(e) ? e[0] : e;
    if (!isRecord(target)) return e;
    const names = Object.keys(target);
    if (names.length > 0) target[names[i % names.length]!] = v;
    return e;
  });
  // Examples with a fresh title, so creates are accepted more than once.
  const retitled = fc.tuple(example, fc.string({ minLength: 1, maxLength: 8 })).map(([e, t]) => {
    const target = Array.isArray(e) ? e[0] : e;
    if (isRecord(target) && 'title' in target) target.title = `t ${t}`;
    return e;
  });
  return fc.oneof(
    { weight: 3, arbitrary: example },
    { weight: 3, arbitrary: retitled },
    { weight: 4, arbitrary: changed },
    { weight: 2, arbitrary: generic },
  );
}

export const opsHeaders: fc.Arbitrary<Record<string, string>> = fc
  .tuple(opsCredential, contentType, extraHeaders)
  .map(([auth, type, extra]) => {
    const headers: Record<string, string> = { ...extra };
    if (type !== undefined) headers['content-type'] = type;
    if (auth !== undefined) headers.authorization = auth;
    return headers;
  });

/** A fixed clock: two fresh handlers then start from identical states, and timestamps never move by themselves. */
const FROZEN_NOW = Date.parse('2030-01-01T00:00:00.000Z');

export function opsWorld(config: OpsConfig = OPS_CONFIG): ApiHandler {
  return createOpsHandler(config, { now: () => FROZEN_NOW });
}

/** Every list (and list-like) endpoint, as one user reads them. */
function fingerprintTargets(eventIds: Iterable<string>): string[] {
  const ids = [...new Set([...EPISODES, ...eventIds])].filter((id) => id !== '');
  const targets = [
    `${ITOA}/get_alias_list`,
    `${ITOA}/get_supported_object_types`,
    ...CORE_TYPES.map((t) => `${ITOA}/${t}`),
    `${ITOA}/entity/count_retirable`,
    `${ITOA}/content_pack`,
    `${ITOA}/content_pack_authorship/content_pack`,
    ...EVENT_TYPES.map((t) => `${EVENTS}/${t}`),
    `${EVENTS}/notable_event_actions`,
    `${MAINTENANCE}/get_supported_object_types`,
    `${MAINTENANCE}/maintenance_calendar`,
    `${BACKUP}/backup_restore`,
    ICONS,
    `${ICONS}?list_categories=1`,
  ];
  // Ticket links are only listed per episode: ask for every episode id the run may have touched. Ids that are not
  // well-formed UTF-16 cannot travel in a query string; in-process they go raw in the path, one by one.
  const loneSurrogate = /[\ud800-\udfff]/u;
  const wellFormed = ids.filter((id) => !loneSurrogate.test(id));
  for (let i = 0; i < wellFormed.length; i += 500) {
    const chunk = wellFormed.slice(i, i + 500);
    targets.push(`${EVENTS}/ticketing/${encodeURIComponent(chunk[0]!)}?ids=${encodeURIComponent(chunk.slice(1).join(','))}`);
  }
  for (const id of ids) if (loneSurrogate.test(id)) targets.push(`${EVENTS}/ticketing/${id.replace(/[%/?#]/g, encodeURIComponent)}`);
  return targets;
}

/** A digest of every list endpoint for every user (admin and the read-only analyst). */
export async function opsFingerprint(handler: ApiHandler, eventIds: Iterable<string> = []): Promise<string> {
  const hash = createHash('sha256');
  const targets = fingerprintTargets(eventIds);
  for (const auth of [ADMIN, ANALYST]) {
    for (const target of targets) {
      const out = await callHandler(handler, getRequest(target, { authorization: auth }));
      if (!out.ok) throw new Error(`fingerprint GET ${target} threw`);
      hash.update(`${auth === ADMIN ? 'admin' : 'analyst'} ${target} ${out.res.status} ${out.json ?? ''}\n`);
    }
  }
  return hash.digest('hex');
}

/** The operation's path with real values: the first object of a type that has some, the first pack, and so on. */
export function canonicalOpsTarget(op: SpecOperation): string {
  let type = '';
  return op.template.replace(/\{([^}]+)\}/g, (_, param: string) => {
    const spec = op.pathParams.find((p) => p.name === param);
    const enumValues = (spec?.enum ?? []) as string[];
    switch (param) {
      case 'user':
        return 'nobody';
      case 'app':
        return 'SA-ITOA';
      case 'object_type':
        type = enumValues.includes('service') ? 'service' : (enumValues[0] ?? 'notable_event_group');
        return type;
      case '_key':
        return op.template.includes('icon_collection')
          ? iconKeys.find((k) => k !== undefined && !isImmutableIcon(k))!
          : (keysOf(type || (op.template.includes('/service/') ? 'service' : ''))[0] ?? allKeys[0]!);
      case 'name':
        return packs[0]!.id;
      case 'version':
        return packs[0]!.version;
      case 'content_pack_id':
        return keysOf('content_pack')[0]!;
      case 'object_id':
        return keysOf('custom_threshold_windows')[0]!;
      case 'action_name':
        return actions[0]!;
      case 'event_key':
      case 'episode_id':
        return EPISODES[0]!;
      case 'ticket_system':
        return tickets[0]!.ticket_system;
      case 'ticket_id':
        return tickets[0]!.ticket_id;
      default:
        return enumValues[0] !== undefined ? String(enumValues[0]) : 'x';
    }
  });
}

function isImmutableIcon(key: string): boolean {
  const icon = seed.icons.find((i) => i._key === key);
  return seed.iconCategories.some((c) => c.name === icon?.category && c.immutable === true);
}
