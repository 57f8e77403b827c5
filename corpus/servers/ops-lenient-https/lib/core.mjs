// itoa_interface: core objects, their special endpoints, and the content-pack routes.
import { requireWriter } from './auth.mjs';
import { handleAuthoring } from './authoring.mjs';
import { bulkUpdate, countRows, createOne, deleteMany, deleteOne, getOne, isPartial, listRows, updateOne } from './crud.mjs';
import {
  aliasList,
  getServiceTemplate,
  linkServiceTemplate,
  restoreEntities,
  retirableList,
  retireEntities,
  retireRetirable,
  templatize,
} from './core-special.mjs';
import { associate, disconnect, linkedKpis, stopWindow } from './ctw.mjs';
import { notAllowed, notFound } from './http.mjs';
import { ALL_CORE_TYPES, coreKind } from './kinds.mjs';
import { handleLibrary } from './packs.mjs';

const ok = (body) => ({ status: 200, body });

function special(ctx, type, rest) {
  const { method, q, body, user } = ctx;
  const [a, b] = rest;
  if (type === 'entity' && rest.length === 1) {
    if (a === 'count_retirable' && method === 'GET') return ok(retirableList(user));
    if (a === 'retire' && method === 'POST') return ok(retireEntities(user, body));
    if (a === 'restore' && method === 'POST') return ok(restoreEntities(user, body));
    if (a === 'retire_retirable' && method === 'POST') return ok(retireRetirable(user));
  }
  if (type === 'custom_threshold_windows') {
    if (rest.length === 1 && a === 'linked_kpis' && method === 'GET') return ok(linkedKpis(user, q));
    if (rest.length === 2 && method === 'POST') {
      if (b === 'associate_service_kpi') return ok(associate(user, a, q, body));
      if (b === 'disconnect_kpis') return ok(disconnect(user, a, q, body));
      if (b === 'stop') return ok(stopWindow(user, a));
    }
  }
  if (type === 'service' && rest.length === 2 && b === 'base_service_template') {
    if (method === 'GET') return ok(getServiceTemplate(user, a));
    if (method === 'POST') return ok(linkServiceTemplate(user, a, body));
  }
  if (rest.length === 2 && b === 'templatize' && method === 'GET') return ok(templatize(user, type, a));
  return null;
}

export function handleCore(ctx) {
  const { method, segs, q, body, user } = ctx;
  const [type, ...rest] = segs;
  if (type === undefined) return ok(ALL_CORE_TYPES);
  if (type === 'get_alias_list' && rest.length === 0 && method === 'GET') return ok(aliasList(user));
  if (type === 'get_supported_object_types' && rest.length === 0 && method === 'GET') return ok(ALL_CORE_TYPES);
  if (type === 'content_pack') return handleLibrary(ctx, rest);
  if (type === 'content_pack_authorship') return handleAuthoring(ctx, rest);
  const kind = coreKind(type);
  if (!kind) throw notFound(`object type ${type}`);
  if (method !== 'GET') requireWriter(user);
  const s = special(ctx, type, rest);
  if (s) return s;
  if (rest.length === 0) {
    if (method === 'GET') return ok(listRows(kind, user, q));
    if (method === 'POST') {
      const r = createOne(kind, user, body);
      return { status: r.created ? 201 : 200, body: { _key: r.key } };
    }
    if (method === 'DELETE') {
      deleteMany(kind, user, q);
      return { status: 204 };
    }
    throw notAllowed();
  }
  if (rest.length === 1) {
    const [key] = rest;
    if (key === 'count' && method === 'GET') return ok(countRows(kind, user, q));
    if (key === 'bulk_update' && method === 'POST') return ok(bulkUpdate(kind, user, q, body));
    if (method === 'GET') return ok(getOne(kind, user, key));
    if (method === 'POST') return ok({ _key: updateOne(kind, user, key, body, isPartial(q)) });
    if (method === 'DELETE') {
      deleteOne(kind, user, key);
      return { status: 204 };
    }
    throw notAllowed();
  }
  throw notFound(`path ${segs.join('/')}`);
}
