import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import { permissionsFor } from './access';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { coreRules } from './core';
import { badRequest, notFound } from './errors';
import { isPlainObject, isStringArray, parsedBody, unwrapData } from './input';
import { type TypeRules, readableObject, readableObjects, writeObject } from './objects';
import { ITOA } from './paths';

/** Where a retired entity keeps the service links it had, so restore can put them back. */
const REMEMBERED_LINKS = 'retired_services';

const entityRules = (): TypeRules => coreRules('entity')!;

const isRetired = (e: Doc) => e.retired === 1 || e.retired === true || e.retired === '1';
const isRetirable = (e: Doc) => e.retirable === 1 || e.retirable === true || e.retirable === '1';

/**
 * The entities named by a `{data: [keys]}` body, all of them readable; otherwise the error to answer. The documented
 * body is itself a `data` member, so it is not unwrapped as other bodies are; a form field `data=[keys]` and a
 * doubly wrapped `{data: {data: [keys]}}` name the same keys.
 */
function namedEntities(ctx: OpsCtx): { ok: true; entities: Doc[] } | { ok: false; error: ApiResponse } {
  const body = parsedBody(ctx.req);
  if (!body.ok) return body;
  const value = unwrapData(body.value, isPlainObject);
  if (!Array.isArray(value) && !isPlainObject(value)) return { ok: false, error: badRequest('The body must be {"data": [entity keys]}') };
  const keys = Array.isArray(value) ? value : value.data;
  if (!isStringArray(keys)) return { ok: false, error: badRequest('data must be an array of entity keys') };
  const entities: Doc[] = [];
  for (const key of new Set(keys)) {
    const entity = readableObject(ctx, 'entity', key);
    if (entity === undefined) return { ok: false, error: notFound(`No entity object with _key "${key}"`) };
    entities.push(entity);
  }
  return { ok: true, entities };
}

function retire(ctx: OpsCtx, entity: Doc): void {
  if (isRetired(entity)) return;
  const content: Doc = { ...entity, retired: 1, services: [] };
  content[REMEMBERED_LINKS] = Array.isArray(entity.services) ? entity.services : [];
  writeObject(ctx, entityRules(), content, entity);
}

function restore(ctx: OpsCtx, entity: Doc): void {
  if (!isRetired(entity)) return;
  const { retired: _r, [REMEMBERED_LINKS]: links, ...rest } = entity;
  const services: unknown[] = [];
  const seen = new Set<unknown>();
  for (const link of [...(Array.isArray(entity.services) ? entity.services : []), ...(Array.isArray(links) ? links : [])]) {
    const key = typeof link === 'object' && link !== null ? (link as Doc)._key : link;
    if (seen.has(key)) continue;
    seen.add(key);
    services.push(link);
  }
  writeObject(ctx, entityRules(), { ...rest, services }, entity);
}

function retireListed(ctx: OpsCtx): ApiResponse {
  const named = namedEntities(ctx);
  if (!named.ok) return named.error;
  for (const e of named.entities) retire(ctx, e);
  return { status: 200, body: named.entities.map((e) => e._key) };
}

function restoreListed(ctx: OpsCtx): ApiResponse {
  const named = namedEntities(ctx);
  if (!named.ok) return named.error;
  for (const e of named.entities) restore(ctx, e);
  return { status: 200, body: named.entities.map((e) => e._key) };
}

function retirableNow(ctx: OpsCtx): Doc[] {
  return readableObjects(ctx, 'entity').filter((e) => isRetirable(e) && !isRetired(e));
}

function retireRetirable(ctx: OpsCtx): ApiResponse {
  const entities = retirableNow(ctx);
  for (const e of entities) retire(ctx, e);
  return { status: 200, body: entities.map((e) => e._key) };
}

function countRetirable(ctx: OpsCtx): ApiResponse {
  const group = ctx.state.config.defaultSecurityGroup;
  return {
    status: 200,
    body: retirableNow(ctx).map((e) => ({
      object_type: 'entity',
      title: e.title,
      retirable: e.retirable,
      sec_grp: e.sec_grp,
      _key: e._key,
      permissions: permissionsFor(ctx.user, e, group),
    })),
  };
}

export const entityRoutes: Route<OpsRouteFn>[] = [
  route('GET', `${ITOA}/entity/count_retirable`, countRetirable),
  route('POST', `${ITOA}/entity/retire`, retireListed),
  route('POST', `${ITOA}/entity/restore`, restoreListed),
  route('POST', `${ITOA}/entity/retire_retirable`, retireRetirable),
];
