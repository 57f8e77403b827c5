import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import type { ContentPack, Doc, PackObject } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { coreRules } from './core';
import { badRequest, notFound } from './errors';
import { eventRules } from './events';
import { boolMember, isPlainObject, isStringArray, optionalObjectBody } from './input';
import { type TypeRules, writeObject } from './objects';
import { ITOA } from './paths';
import { listRows } from './query';

const BASE = `${ITOA}/content_pack`;

/** The member of `content` that names saved searches rather than an object-type group. */
const SAVED_SEARCHES = 'saved_searches';

/** Object type installed for each object-type group of a pack. */
const GROUP_TYPES: Record<string, string> = {
  services: 'service',
  service_templates: 'base_service_template',
  kpi_base_searches: 'kpi_base_search',
  kpi_threshold_templates: 'kpi_threshold_template',
  entity_types: 'entity_type',
  glass_tables: 'glass_table',
  service_analyzers: 'home_view',
  deep_dives: 'deep_dive',
  teams: 'team',
  event_management_states: 'event_management_state',
  correlation_searches: 'correlation_search',
  aggregation_policies: 'notable_aggregation_policy',
};

/** The install's `enabled` decides these; saved searches and base searches keep their own state. */
const ENABLE_CONTROLLED = new Set(['service', 'correlation_search', 'notable_aggregation_policy']);

function rulesFor(type: string): TypeRules | undefined {
  return coreRules(type) ?? eventRules(type);
}

/** A pack as the list and the single read show it (the installable objects stay behind). */
function packView(pack: ContentPack): Doc {
  const { objects: _objects, saved_searches: _saved, ...view } = pack;
  return structuredClone(view);
}

function visiblePacks(ctx: OpsCtx): ContentPack[] {
  return ctx.state.catalogue.packs.filter((p) => !ctx.state.catalogue.removed.has(p.id));
}

function findPack(ctx: OpsCtx): ContentPack | ApiResponse {
  const { name, version } = ctx.params;
  const pack = visiblePacks(ctx).find((p) => p.id === name);
  if (pack === undefined) return notFound(`No content pack "${name}"`);
  if (pack.version !== version) return notFound(`Content pack "${name}" has no version "${version}" (it has ${pack.version})`);
  return pack;
}

function isResponse(v: ContentPack | ApiResponse): v is ApiResponse {
  return typeof (v as ApiResponse).status === 'number';
}

function listPacks(ctx: OpsCtx): ApiResponse {
  const listed = listRows(visiblePacks(ctx).map(packView), ctx.req.query, ctx.state.filters, {
    names: { filter: 'filter', sortKey: 'sort_key', sortDir: 'sort_dir', offset: 'offset', limit: 'count', fields: 'fields' },
  });
  if (!listed.ok) return listed.error;
  return { status: 200, body: { success: listed.value.rows, failure: structuredClone(ctx.state.catalogue.failures) } };
}

function getPack(ctx: OpsCtx): ApiResponse {
  const pack = findPack(ctx);
  return isResponse(pack) ? pack : { status: 200, body: packView(pack) };
}

function groupType(group: string): string | undefined {
  return Object.hasOwn(GROUP_TYPES, group) ? GROUP_TYPES[group] : undefined;
}

function installedAlready(ctx: OpsCtx, group: string, obj: PackObject): boolean {
  const type = groupType(group);
  return type !== undefined && ctx.state.store.has(type, obj.id);
}

function preview(ctx: OpsCtx): ApiResponse {
  const pack = findPack(ctx);
  if (isResponse(pack)) return pack;
  const body: Doc = {};
  for (const [group, objects] of Object.entries(pack.objects)) {
    body[group] = objects.map((o) => ({
      id: o.id,
      title: o.title,
      description: o.description,
      entitlement_status: o.entitlement_status ?? true,
      installed: installedAlready(ctx, group, o),
      has_dependency: o.has_dependency ?? false,
    }));
  }
  body.saved_searches = { has_saved_searches: pack.saved_searches.length > 0, has_consistent_status: true };
  return { status: 200, body };
}

interface InstallOptions {
  content: Record<string, string[]> | undefined;
  resolution: 'overwrite' | 'skip' | undefined;
  enabled: boolean;
  prefix: string;
  backfill: boolean;
}

function installOptions(body: Doc): InstallOptions | string {
  const content = body.content;
  if (content !== undefined && content !== null) {
    if (!isPlainObject(content)) return 'content must map object-type groups to arrays of object ids';
    for (const [group, ids] of Object.entries(content)) {
      if (!isStringArray(ids)) return `content.${group} must be an array of object ids`;
    }
  }
  const resolution = body.resolution;
  if (resolution !== undefined && resolution !== null && resolution !== 'overwrite' && resolution !== 'skip') {
    return 'resolution must be "overwrite" or "skip"';
  }
  const enabled = boolMember(body, 'enabled');
  if (!enabled.ok) return 'enabled must be a Boolean (1 or 0)';
  const backfill = boolMember(body, 'backfill');
  if (!backfill.ok) return 'backfill must be a Boolean (1 or 0)';
  const prefix = body.prefix ?? '';
  if (typeof prefix !== 'string') return 'prefix must be a string';
  return {
    content: isPlainObject(content) ? (content as Record<string, string[]>) : undefined,
    resolution: (resolution ?? undefined) as InstallOptions['resolution'],
    enabled: enabled.value ?? false,
    prefix,
    backfill: backfill.value ?? true,
  };
}

function install(ctx: OpsCtx): ApiResponse {
  const pack = findPack(ctx);
  if (isResponse(pack)) return pack;
  const body = optionalObjectBody(ctx.req);
  if (!body.ok) return body.error;
  const opts = installOptions(body.value);
  if (typeof opts === 'string') return badRequest(opts);

  const success: Record<string, { id: string; title: string }[]>[] = [];
  const failure: Doc[] = [];
  // The document maps object-type names to ids; the preview and results name groups. Either key selects the objects.
  const named = (key: string) => (opts.content !== undefined && Object.hasOwn(opts.content, key) ? opts.content[key]! : []);
  const wanted = (group: string, id: string) =>
    opts.content === undefined || named(group).includes(id) || (GROUP_TYPES[group] !== undefined && named(GROUP_TYPES[group]).includes(id));

  if (opts.content !== undefined) {
    for (const [group, ids] of Object.entries(opts.content)) {
      if (group === SAVED_SEARCHES) continue;
      const packGroup = Object.hasOwn(pack.objects, group)
        ? group
        : (Object.keys(GROUP_TYPES).find((g) => GROUP_TYPES[g] === group) ?? group);
      for (const id of ids) {
        const known = Object.hasOwn(pack.objects, packGroup) ? pack.objects[packGroup]! : [];
        if (!known.some((o) => o.id === id)) {
          failure.push({ content_type: group, id, title: '', type: 'OBJECT_NOT_FOUND' });
        }
      }
    }
  }

  for (const [group, objects] of Object.entries(pack.objects)) {
    const type = groupType(group);
    const rules = type === undefined ? undefined : rulesFor(type);
    const installed: { id: string; title: string }[] = [];
    for (const obj of objects) {
      if (!wanted(group, obj.id)) continue;
      if (rules === undefined) {
        failure.push({ content_type: group, id: obj.id, title: obj.title, type: 'UNSUPPORTED_OBJECT_TYPE' });
        continue;
      }
      const previous = ctx.state.store.get(rules.type, obj.id);
      if (previous !== undefined && opts.resolution === undefined) {
        failure.push({ content_type: group, id: obj.id, title: obj.title, type: 'OBJECT_ALREADY_EXISTS' });
        continue;
      }
      if (previous !== undefined && opts.resolution === 'skip') continue;
      const content: Doc = {
        ...structuredClone(obj.fields ?? {}),
        _key: obj.id,
        title: `${opts.prefix}${obj.title}`,
        description: obj.description,
        source_content_pack: { id: pack.id, version: pack.version },
      };
      if (ENABLE_CONTROLLED.has(rules.type)) content.enabled = opts.enabled ? 1 : 0;
      if (rules.type === 'service') content.backfill_enabled = opts.backfill;
      // Overwrite starts from the pack's object alone, so changes made since the last install are discarded.
      const written = writeObject(ctx, rules, content, undefined);
      if (typeof written === 'string') {
        failure.push({ content_type: group, id: obj.id, title: obj.title, type: 'INVALID_OBJECT' });
        continue;
      }
      installed.push({ id: obj.id, title: written.title as string });
    }
    if (installed.length > 0) success.push({ [group]: installed });
  }

  const savedWanted =
    opts.content === undefined ? pack.saved_searches : Object.hasOwn(opts.content, SAVED_SEARCHES) ? opts.content[SAVED_SEARCHES]! : [];
  const saved = {
    action_performed: opts.enabled ? 'enable' : 'install',
    success: [] as string[],
    failure: [] as { name: string; error_message: string }[],
  };
  for (const name of savedWanted) {
    if (pack.saved_searches.includes(name)) saved.success.push(name);
    else saved.failure.push({ name, error_message: `The pack has no saved search "${name}"` });
  }

  if (!pack.installed_versions.includes(pack.version)) pack.installed_versions.push(pack.version);
  return { status: 200, body: { success, failure, saved_searches: saved } };
}

/** Names of apps in a refresh body member; undefined when malformed. */
function appNames(body: Doc, member: string): string[] | undefined {
  const v = body[member];
  if (v === undefined || v === null) return [];
  return isStringArray(v) ? v : undefined;
}

/**
 * Re-reads which content-pack apps are present: an added app that the library knows reappears in the list,
 * a removed one disappears from it; names the library does not know are reported as failed.
 */
function refresh(ctx: OpsCtx): ApiResponse {
  const body = optionalObjectBody(ctx.req);
  if (!body.ok) return body.error;
  const added = appNames(body.value, 'apps_added');
  const removed = appNames(body.value, 'apps_removed');
  if (added === undefined || removed === undefined) return badRequest('apps_added and apps_removed must be arrays of app names');
  const { catalogue } = ctx.state;
  const known = (id: string) => catalogue.packs.some((p) => p.id === id);
  const result = {
    success: { apps_added: [] as string[], apps_removed: [] as string[] },
    failed: { apps_added: [] as string[], apps_removed: [] as string[] },
  };
  for (const id of added) {
    if (known(id)) {
      catalogue.removed.delete(id);
      result.success.apps_added.push(id);
    } else {
      result.failed.apps_added.push(id);
    }
  }
  for (const id of removed) {
    if (known(id)) {
      catalogue.removed.add(id);
      result.success.apps_removed.push(id);
    } else {
      result.failed.apps_removed.push(id);
    }
  }
  return { status: 200, body: result };
}

export const contentPackRoutes: Route<OpsRouteFn>[] = [
  route('GET', BASE, listPacks),
  route('POST', `${BASE}/refresh`, refresh),
  route('GET', `${BASE}/:name/:version`, getPack),
  route('GET', `${BASE}/:name/:version/preview`, preview),
  route('POST', `${BASE}/:name/:version/install`, install),
];
