import { Context } from 'mingo/core';
import * as arrayOps from 'mingo/operators/query/array';
import * as bitwiseOps from 'mingo/operators/query/bitwise';
import * as comparisonOps from 'mingo/operators/query/comparison';
import * as elementOps from 'mingo/operators/query/element';
import { $mod } from 'mingo/operators/query/evaluation';
import * as logicalOps from 'mingo/operators/query/logical';
import { Query } from 'mingo/query';
import type { AnyObject, Options } from 'mingo/types';
import { ensureArray, flatten, resolve } from 'mingo/util';
import type { Doc } from './config';
import { compileSafeRegex } from './regex';
import { isPlainObject } from '../http/json';

export type Predicate = (doc: Doc) => boolean;

const MATCH_ALL: Predicate = () => true;

/**
 * Mingo turns `{$regex, $options}` into a native RegExp before any operator sees it, and native RegExps backtrack.
 * Filters are therefore rewritten so each `$regex` (with its `$options`) reaches this operator under a private name,
 * and mingo's own `$regex` is left out of the context.
 */
const SAFE_REGEX_OP = '$__safeRegex';

interface SafeRegexArg {
  pattern: unknown;
  options: unknown;
}

function safeRegexOperator(maxLength: number) {
  return (selector: string, value: unknown, _options: Options) => {
    const arg = value as SafeRegexArg;
    const re = compileSafeRegex(arg.pattern, arg.options, maxLength);
    const test = (v: unknown) => typeof v === 'string' && re.test(v);
    // Same array handling as mingo's $regex: any element, or any element of a nested array, may match.
    return (obj: AnyObject) => {
      const values = ensureArray(resolve(obj, selector, { unwrapArray: true }));
      return values.some(test) || flatten(values, 1).some(test);
    };
  };
}

/**
 * The document-store operators the filter accepts. `$expr`, `$where` and `$jsonSchema` are left out: the key-value
 * store behind the API does not offer them, and `$expr` would open mingo's unbounded expression operators
 * (`$range`, native `$regexMatch`...) to any caller.
 */
function buildContext(maxLength: number): Context {
  return Context.init({
    query: {
      ...comparisonOps,
      ...logicalOps,
      ...elementOps,
      ...arrayOps,
      ...bitwiseOps,
      $mod,
      [SAFE_REGEX_OP]: safeRegexOperator(maxLength),
    },
  });
}

function rewriteRegex(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRegex);
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  const hasRegex = Object.hasOwn(node, '$regex');
  for (const [k, v] of Object.entries(node)) {
    if (hasRegex && (k === '$regex' || k === '$options')) continue;
    Object.defineProperty(out, k, { value: rewriteRegex(v), enumerable: true, writable: true, configurable: true });
  }
  if (hasRegex) out[SAFE_REGEX_OP] = { pattern: node.$regex, options: node.$options } satisfies SafeRegexArg;
  return out;
}

/** A top-level field a filter requires to equal one of `values` (`{f: v}`, `{f: {$eq: v}}`, `{f: {$in: [...]}}`). */
interface Equality {
  field: string;
  values: (string | number | boolean)[];
}

interface FilterPlan {
  predicate: Predicate;
  /** True when the filter selects every row (absent, empty or incorrect). */
  matchesAll: boolean;
  /**
   * Equalities every matching row satisfies, for an index to narrow the rows to test. Only given for filters that
   * cannot fail on any row's data (see SIMPLE_OPERATORS): a filter that fails on a row matches that row, which no
   * index could predict.
   */
  equalities: Equality[];
}

export interface FilterCompiler {
  /**
   * The predicate of a `filter` parameter. Absent or empty matches every row; so does an incorrect filter
   * (invalid JSON, not an object, an operator the store rejects), as the document says.
   */
  compile(raw: string | null | undefined): Predicate;
  /** The predicate with what an index can use of the filter. */
  plan(raw: string | null | undefined): FilterPlan;
}

/** Comparison operators that compare scalars with any stored value without ever throwing. */
const SIMPLE_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists']);

type Scalar = string | number | boolean | null;

const isScalar = (v: unknown): v is Scalar =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const isIndexable = (v: unknown): v is string | number | boolean => v !== null && isScalar(v);

/**
 * The equalities of a filter made only of field conditions with scalar operands and SIMPLE_OPERATORS (an implicit
 * AND at the top level); undefined for any other filter.
 */
function simpleEqualities(filter: Record<string, unknown>): Equality[] | undefined {
  const out: Equality[] = [];
  for (const [field, cond] of Object.entries(filter)) {
    // Names of Object.prototype members (`__proto__`, `constructor`...) resolve in ways an index cannot follow.
    if (field === '' || field.startsWith('$') || field in Object.prototype) return undefined;
    if (isScalar(cond)) {
      if (isIndexable(cond)) out.push({ field, values: [cond] });
      continue;
    }
    if (!isPlainObject(cond)) return undefined;
    const ops = Object.entries(cond);
    if (ops.length === 0) return undefined;
    for (const [op, arg] of ops) {
      if (!SIMPLE_OPERATORS.has(op)) return undefined;
      if (op === '$in' || op === '$nin') {
        if (!Array.isArray(arg) || !arg.every(isScalar)) return undefined;
        if (op === '$in' && arg.every(isIndexable)) out.push({ field, values: arg });
      } else {
        if (!isScalar(arg)) return undefined;
        if (op === '$eq' && isIndexable(arg)) out.push({ field, values: [arg] });
      }
    }
  }
  return out;
}

const EVERY_ROW: FilterPlan = { predicate: MATCH_ALL, matchesAll: true, equalities: [] };

export function createFilterCompiler(regexMaxPatternLength: number): FilterCompiler {
  const context = buildContext(regexMaxPatternLength);
  const options = { context, idKey: '_key', scriptEnabled: false };
  const plan = (raw: string | null | undefined): FilterPlan => {
    if (raw === null || raw === undefined || raw.trim() === '') return EVERY_ROW;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return EVERY_ROW;
    }
    if (!isPlainObject(parsed)) return EVERY_ROW;
    let query: Query;
    try {
      query = new Query(rewriteRegex(parsed) as AnyObject, options);
    } catch {
      return EVERY_ROW;
    }
    const predicate: Predicate = (doc) => {
      try {
        return query.test(doc);
      } catch {
        // An operator that fails on one row's data (e.g. a bad `$type` alias) makes the filter incorrect.
        return true;
      }
    };
    return { predicate, matchesAll: false, equalities: simpleEqualities(parsed) ?? [] };
  };
  return { compile: (raw) => plan(raw).predicate, plan };
}
