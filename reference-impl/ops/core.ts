import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { notFound } from './errors';
import { CORE_TYPES, UNUSED_LISTED_TYPES, flavorOf } from './object-types';
import {
  type TypeRules,
  bulkUpdate,
  countObjects,
  createObject,
  deleteObject,
  deleteObjects,
  listObjects,
  readObject,
  readableObjects,
  updateObject,
} from './objects';
import { ITOA } from './paths';

function lowerCaseStatus(doc: Doc): undefined {
  // Windows report their status in lower case whatever case a client wrote.
  doc.status = typeof doc.status === 'string' ? doc.status.toLowerCase() : 'active';
  return undefined;
}

function buildRules(): Map<string, TypeRules> {
  const rules = new Map<string, TypeRules>();
  for (const type of [...CORE_TYPES, ...UNUSED_LISTED_TYPES]) {
    rules.set(type, { type, required: ['title'], flavor: flavorOf(type) });
  }
  rules.set('custom_threshold_windows', {
    type: 'custom_threshold_windows',
    required: ['title'],
    flavor: 'core',
    prepare: lowerCaseStatus,
  });
  rules.set('team', {
    type: 'team',
    required: ['title'],
    flavor: 'core',
    undeletable: (doc, ctx) =>
      doc._key === ctx.state.config.defaultSecurityGroup ? 'The Global team cannot be deleted' : undefined,
  });
  return rules;
}

const RULES = buildRules();

/** The write rules of a core object type, or undefined for a type the interface does not serve. */
export function coreRules(type: string): TypeRules | undefined {
  return RULES.get(type);
}

function withType(fn: (ctx: OpsCtx, rules: TypeRules) => ApiResponse): OpsRouteFn {
  return (ctx) => {
    const type = ctx.params.objectType ?? '';
    const rules = coreRules(type);
    if (rules === undefined) return notFound(`Unknown object type "${type}"`);
    return fn(ctx, rules);
  };
}

function sortedUnion(lists: Iterable<unknown>): string[] {
  const names = new Set<string>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const v of list) if (typeof v === 'string') names.add(v);
  }
  return [...names].sort();
}

function aliasList(ctx: OpsCtx): ApiResponse {
  const entities = readableObjects(ctx, 'entity');
  const fieldsOf = (doc: Doc, part: string) => {
    const section = doc[part];
    return typeof section === 'object' && section !== null ? (section as Doc).fields : undefined;
  };
  return {
    status: 200,
    body: {
      identifier: sortedUnion(entities.map((e) => fieldsOf(e, 'identifier'))),
      informational: sortedUnion(entities.map((e) => fieldsOf(e, 'informational'))),
    },
  };
}

export const coreRoutes: Route<OpsRouteFn>[] = [
  route('GET', `${ITOA}/get_alias_list`, aliasList),
  route('GET', `${ITOA}/get_supported_object_types`, () => ({
    status: 200,
    body: [...CORE_TYPES, ...UNUSED_LISTED_TYPES],
  })),
  route('GET', `${ITOA}/:objectType`, withType((ctx, rules) => listObjects(ctx, rules))),
  route('POST', `${ITOA}/:objectType`, withType(createObject)),
  route('DELETE', `${ITOA}/:objectType`, withType((ctx, rules) => deleteObjects(ctx, rules))),
  route('POST', `${ITOA}/:objectType/bulk_update`, withType(bulkUpdate)),
  route('GET', `${ITOA}/:objectType/count`, withType((ctx, rules) => countObjects(ctx, rules))),
  route('GET', `${ITOA}/:objectType/:key`, withType((ctx, rules) => readObject(ctx, rules, ctx.params.key!))),
  route('POST', `${ITOA}/:objectType/:key`, withType((ctx, rules) => updateObject(ctx, rules, ctx.params.key!))),
  route('DELETE', `${ITOA}/:objectType/:key`, withType((ctx, rules) => deleteObject(ctx, rules, ctx.params.key!))),
];
