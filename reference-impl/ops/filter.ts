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

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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

export interface FilterCompiler {
  /**
   * The predicate of a `filter` parameter. Absent or empty matches every row; so does an incorrect filter
   * (invalid JSON, not an object, an operator the store rejects), as the document says.
   */
  compile(raw: string | null | undefined): Predicate;
}

export function createFilterCompiler(regexMaxPatternLength: number): FilterCompiler {
  const context = buildContext(regexMaxPatternLength);
  const options = { context, idKey: '_key', scriptEnabled: false };
  return {
    compile(raw) {
      if (raw === null || raw === undefined || raw.trim() === '') return MATCH_ALL;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return MATCH_ALL;
      }
      if (!isPlainObject(parsed)) return MATCH_ALL;
      let query: Query;
      try {
        query = new Query(rewriteRegex(parsed) as AnyObject, options);
      } catch {
        return MATCH_ALL;
      }
      return (doc) => {
        try {
          return query.test(doc);
        } catch {
          // An operator that fails on one row's data (e.g. a bad `$type` alias) makes the filter incorrect.
          return true;
        }
      };
    },
  };
}
