import { route, type Route } from '../http/router';
import type { ApiResponse } from '../http/types';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { CORE_TYPES, UNUSED_LISTED_TYPES, flavorOf } from './object-types';
import { crudRoutes } from './crud-routes';
import { type TypeRules, readableObjects } from './objects';
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
    undeletable: (doc, ctx) => (doc._key === ctx.state.config.defaultSecurityGroup ? 'The Global team cannot be deleted' : undefined),
  });
  return rules;
}

const RULES = buildRules();

/** The write rules of a core object type, or undefined for a type the interface does not serve. */
export function coreRules(type: string): TypeRules | undefined {
  return RULES.get(type);
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
  ...crudRoutes(ITOA, [...RULES.values()]),
];
