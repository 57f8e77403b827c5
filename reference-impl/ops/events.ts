import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import { newKey } from './clock';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { badRequest, methodNotAllowed, notFound } from './errors';
import { boolParam, isPlainObject, isStringArray, objectBody } from './input';
import { EVENT_TYPES } from './object-types';
import {
  type TypeRules,
  bulkUpdate,
  countObjects,
  deleteObject,
  deleteObjects,
  listObjects,
  readObject,
  readableObjects,
  updateObject,
} from './objects';
import { EVENTS } from './paths';
import { type ListParamNames, projectAsAsked } from './query';
import { completeName, keyForSegment } from './by-name';
import { putCollection } from './collection-put';
import { COMMENT_TYPE, createEventObject } from './event-writes';

/** Event management names the paging and filter parameters its own way. */
const EVENT_LIST_PARAMS: ListParamNames = {
  filter: 'filter_data',
  sortKey: 'sort_key',
  sortDir: 'sort_dir',
  offset: 'skip',
  limit: 'limit',
  fields: 'fields',
};

function prepareComment(doc: Doc, _previous: Doc | undefined, ctx: OpsCtx): string | undefined {
  if (typeof doc.comment !== 'string' || doc.comment === '') return 'comment must be a non-empty string';
  if (typeof doc.event_id !== 'string' || doc.event_id === '') return 'event_id must be the episode identifier';
  doc.user = ctx.user.name;
  doc.owner = ctx.user.name;
  return undefined;
}

function prepareTag(doc: Doc, _previous: Doc | undefined, ctx: OpsCtx): string | undefined {
  if (typeof doc.tag_name !== 'string' || doc.tag_name === '') return 'tag_name must be a non-empty string';
  if (typeof doc.event_id !== 'string' || doc.event_id === '') return 'event_id must be the episode identifier';
  doc.user ??= ctx.user.name;
  doc.owner ??= ctx.user.name;
  return undefined;
}

const RULES = new Map<string, TypeRules>(EVENT_TYPES.map((type): [string, TypeRules] => [type, { type, required: [], flavor: 'event' }]));
RULES.set(COMMENT_TYPE, { type: COMMENT_TYPE, required: [], flavor: 'event', prepare: prepareComment });
RULES.set('notable_event_tag', { type: 'notable_event_tag', required: [], flavor: 'event', prepare: prepareTag });
RULES.set('correlation_search', {
  type: 'correlation_search',
  required: [],
  flavor: 'event',
  prepare: (doc, previous, ctx) => completeName(doc, previous, ctx, 'correlation_search'),
});

/**
 * Path names of stored types: real deployments serve aggregation policies (object_type `notable_aggregation_policy`,
 * as content packs install them) under `notable_event_aggregation_policy`.
 */
const PATH_ALIASES = new Map<string, string>([['notable_event_aggregation_policy', 'notable_aggregation_policy']]);

export function eventRules(type: string): TypeRules | undefined {
  return RULES.get(type);
}

/** The rules of the type a path segment names (an alias or the type itself). */
function rulesAtPath(segment: string): TypeRules | undefined {
  return RULES.get(PATH_ALIASES.get(segment) ?? segment);
}

/**
 * Wraps a route over `<object_type>`. `appendOnly` is what comments answer instead: the methods they do allow
 * on that path (a 405), or an empty list where no method applies to them (a 400).
 */
function withType(fn: (ctx: OpsCtx, rules: TypeRules) => ApiResponse, appendOnly?: string[]): OpsRouteFn {
  return (ctx) => {
    const type = ctx.params.objectType ?? '';
    const rules = rulesAtPath(type);
    if (rules === undefined) return notFound(`Unknown event management object type "${type}"`);
    if (appendOnly !== undefined && type === COMMENT_TYPE) {
      const why = 'episode comments are append-only: they cannot be updated or deleted';
      return appendOnly.length === 0 ? badRequest(why) : methodNotAllowed(appendOnly, `${COMMENT_TYPE} (${why})`);
    }
    return fn(ctx, rules);
  };
}

/** The `_key` the `<type>/<key>` segment names: the key itself, or the name of a named object (correlation searches). */
const addressedKey = (ctx: OpsCtx, rules: TypeRules) => keyForSegment(ctx, rules.type, ctx.params.key!);

/** GET <type>/<key>; with is_event_id the key is an episode id and the answer every object of that episode. */
function readOrByEvent(ctx: OpsCtx, rules: TypeRules): ApiResponse {
  const byEvent = boolParam(ctx.req.query, 'is_event_id');
  if (!byEvent.ok) return byEvent.error;
  const key = byEvent.value ? ctx.params.key! : addressedKey(ctx, rules);
  if (!byEvent.value) return readObject(ctx, rules, key);
  const mine = readableObjects(ctx, rules.type).filter((d) => d.event_id === key);
  return { status: 200, body: mine.map((d) => projectAsAsked(d, ctx.req.query)) };
}

function actionList(ctx: OpsCtx): ApiResponse {
  return { status: 200, body: ctx.state.episodeActions.map((a) => structuredClone(a.entry)) };
}

function findAction(ctx: OpsCtx) {
  return ctx.state.episodeActions.find((a) => a.entry.action_name === ctx.params.action);
}

function actionConfig(ctx: OpsCtx): ApiResponse {
  const action = findAction(ctx);
  if (action === undefined) return notFound(`No episode action "${ctx.params.action}"`);
  return { status: 200, body: structuredClone(action.config) };
}

function executeAction(ctx: OpsCtx): ApiResponse {
  const action = findAction(ctx);
  if (action === undefined) return notFound(`No episode action "${ctx.params.action}"`);
  const body = objectBody(ctx.req);
  if (!body.ok) return body.error;
  const { ids, params } = body.value;
  if (!isStringArray(ids) || ids.length === 0) return badRequest('ids must be a non-empty array of episode ids');
  if (params !== undefined && !isPlainObject(params)) return badRequest('params must be an object');
  const sid = `${Math.floor(ctx.state.clock.now() / 1000)}_${newKey()}`;
  return { status: 200, body: [{ action_name: action.entry.action_name, ids: [...ids], sid }] };
}

const APPEND_ONLY_ITEM = ['GET', 'HEAD'];
const APPEND_ONLY_COLLECTION = ['GET', 'HEAD', 'POST'];

export const eventRoutes: Route<OpsRouteFn>[] = [
  route('GET', `${EVENTS}/notable_event_actions`, actionList),
  route('GET', `${EVENTS}/notable_event_actions/:action`, actionConfig),
  route('POST', `${EVENTS}/notable_event_actions/:action`, executeAction),
  route(
    'GET',
    `${EVENTS}/:objectType`,
    withType((ctx, rules) => listObjects(ctx, rules, EVENT_LIST_PARAMS)),
  ),
  route('POST', `${EVENTS}/:objectType`, withType(createEventObject)),
  route('PUT', `${EVENTS}/:objectType`, withType(putCollection, APPEND_ONLY_COLLECTION)),
  route(
    'DELETE',
    `${EVENTS}/:objectType`,
    withType((ctx, rules) => deleteObjects(ctx, rules, EVENT_LIST_PARAMS), APPEND_ONLY_COLLECTION),
  ),
  route('POST', `${EVENTS}/:objectType/bulk_update`, withType(bulkUpdate, [])),
  route(
    'GET',
    `${EVENTS}/:objectType/count`,
    withType((ctx, rules) => countObjects(ctx, rules, EVENT_LIST_PARAMS.filter)),
  ),
  route('GET', `${EVENTS}/:objectType/:key`, withType(readOrByEvent)),
  route(
    'POST',
    `${EVENTS}/:objectType/:key`,
    withType((ctx, rules) => updateObject(ctx, rules, addressedKey(ctx, rules)), APPEND_ONLY_ITEM),
  ),
  route(
    'PUT',
    `${EVENTS}/:objectType/:key`,
    withType((ctx, rules) => updateObject(ctx, rules, addressedKey(ctx, rules)), APPEND_ONLY_ITEM),
  ),
  route(
    'DELETE',
    `${EVENTS}/:objectType/:key`,
    withType((ctx, rules) => deleteObject(ctx, rules, addressedKey(ctx, rules)), APPEND_ONLY_ITEM),
  ),
];
