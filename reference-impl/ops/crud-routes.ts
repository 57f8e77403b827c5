import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import type { OpsCtx, OpsRouteFn } from './context';
import { notFound } from './errors';
import {
  type TypeRules,
  bulkUpdate,
  countObjects,
  createObject,
  deleteObject,
  deleteObjects,
  listObjects,
  readObject,
  updateObject,
} from './objects';

/** The documented CRUD table of an interface that serves a fixed set of object types under `<base>/<type>`. */
export function crudRoutes(base: string, types: readonly TypeRules[]): Route<OpsRouteFn>[] {
  const byType = new Map(types.map((r) => [r.type, r]));
  const withType =
    (fn: (ctx: OpsCtx, rules: TypeRules) => ApiResponse): OpsRouteFn =>
    (ctx) => {
      const type = ctx.params.objectType ?? '';
      const rules = byType.get(type);
      return rules === undefined ? notFound(`Unknown object type "${type}"`) : fn(ctx, rules);
    };
  return [
    route('GET', `${base}/get_supported_object_types`, () => ({ status: 200, body: [...byType.keys()] })),
    route(
      'GET',
      `${base}/:objectType`,
      withType((ctx, rules) => listObjects(ctx, rules)),
    ),
    route('POST', `${base}/:objectType`, withType(createObject)),
    route(
      'DELETE',
      `${base}/:objectType`,
      withType((ctx, rules) => deleteObjects(ctx, rules)),
    ),
    route('POST', `${base}/:objectType/bulk_update`, withType(bulkUpdate)),
    route(
      'GET',
      `${base}/:objectType/count`,
      withType((ctx, rules) => countObjects(ctx, rules)),
    ),
    route(
      'GET',
      `${base}/:objectType/:key`,
      withType((ctx, rules) => readObject(ctx, rules, ctx.params.key!)),
    ),
    route(
      'POST',
      `${base}/:objectType/:key`,
      withType((ctx, rules) => updateObject(ctx, rules, ctx.params.key!)),
    ),
    // Not in the document; real servers take an update sent with PUT (infrastructure-as-code clients send them so).
    route(
      'PUT',
      `${base}/:objectType/:key`,
      withType((ctx, rules) => updateObject(ctx, rules, ctx.params.key!)),
    ),
    route(
      'DELETE',
      `${base}/:objectType/:key`,
      withType((ctx, rules) => deleteObject(ctx, rules, ctx.params.key!)),
    ),
  ];
}
