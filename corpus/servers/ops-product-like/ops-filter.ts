// Document-store style filter expressions: {field: value}, {field: {$regex}}, {field: {$ne}}
// plus $and/$or/$nor, $in/$nin, $gt/$gte/$lt/$lte, $exists and $eq. Field names may be dotted
// paths that walk into arrays ("services._key").

import type { Doc } from './ops-http.js';

type Predicate = (doc: Doc) => boolean;

export interface FilterQuirks {
  eqCaseInsensitive?: boolean;
  neAsEq?: boolean;
  regexMode?: 'regex' | 'prefix' | 'substring' | 'exact';
}

/** Result of compiling a filter string: `undefined` when absent, `null` when incorrect. */
export type Compiled = Predicate | null | undefined;

class Incorrect extends Error {}

export function compileFilter(raw: string | null | undefined, quirks: FilterQuirks = {}): Compiled {
  if (raw === null || raw === undefined || raw.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  try {
    return compileDoc(parsed as Doc, quirks);
  } catch (e) {
    if (e instanceof Incorrect) return null;
    throw e;
  }
}

function compileDoc(q: Doc, quirks: FilterQuirks): Predicate {
  const preds: Predicate[] = [];
  for (const [key, cond] of Object.entries(q)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(cond) || cond.length === 0) throw new Incorrect();
      const subs = cond.map((c) => {
        if (typeof c !== 'object' || c === null || Array.isArray(c)) throw new Incorrect();
        return compileDoc(c as Doc, quirks);
      });
      if (key === '$and') preds.push((d) => subs.every((s) => s(d)));
      else if (key === '$or') preds.push((d) => subs.some((s) => s(d)));
      else preds.push((d) => !subs.some((s) => s(d)));
    } else if (key.startsWith('$')) {
      throw new Incorrect();
    } else {
      preds.push(compileField(key, cond, quirks));
    }
  }
  return (d) => preds.every((p) => p(d));
}

function isOperatorObject(v: unknown): v is Doc {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function compileField(path: string, cond: unknown, quirks: FilterQuirks): Predicate {
  const parts = path.split('.');
  if (parts.some((p) => p === '')) throw new Incorrect();
  const values = (d: Doc) => collect(d, parts);
  if (!isOperatorObject(cond)) {
    if (typeof cond === 'object' && cond !== null && !Array.isArray(cond) && Object.keys(cond).some((k) => k.startsWith('$')))
      throw new Incorrect();
    return (d) => matchesEq(values(d), cond, quirks);
  }
  const preds: Predicate[] = [];
  const ops = cond;
  for (const [op, arg] of Object.entries(ops)) {
    switch (op) {
      case '$eq':
        preds.push((d) => matchesEq(values(d), arg, quirks));
        break;
      case '$ne':
        if (quirks.neAsEq) preds.push((d) => matchesEq(values(d), arg, quirks));
        else preds.push((d) => !matchesEq(values(d), arg, quirks));
        break;
      case '$in':
      case '$nin': {
        if (!Array.isArray(arg)) throw new Incorrect();
        const inPred: Predicate = (d) => {
          const vs = values(d);
          return arg.some((a) => matchesEq(vs, a, quirks));
        };
        preds.push(op === '$in' ? inPred : (d) => !inPred(d));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        preds.push(compileCompare(values, op, arg));
        break;
      case '$exists': {
        const want = Boolean(arg);
        preds.push((d) => values(d).some((v) => v !== undefined) === want);
        break;
      }
      case '$regex':
        preds.push(compileRegex(values, arg, ops.$options, quirks));
        break;
      case '$options':
        if (!('$regex' in ops) || typeof arg !== 'string') throw new Incorrect();
        break;
      default:
        throw new Incorrect();
    }
  }
  return (d) => preds.every((p) => p(d));
}

function compileCompare(values: (d: Doc) => unknown[], op: string, arg: unknown): Predicate {
  if (typeof arg !== 'number' && typeof arg !== 'string') throw new Incorrect();
  const test = (v: unknown): boolean => {
    if (typeof v !== typeof arg) return false;
    const a = v as number | string;
    if (op === '$gt') return a > arg;
    if (op === '$gte') return a >= arg;
    if (op === '$lt') return a < arg;
    return a <= arg;
  };
  return (d) => values(d).some((v) => (Array.isArray(v) ? v.some(test) : test(v)));
}

function compileRegex(values: (d: Doc) => unknown[], pattern: unknown, options: unknown, quirks: FilterQuirks): Predicate {
  if (typeof pattern !== 'string') throw new Incorrect();
  const flags = typeof options === 'string' ? options : '';
  if (!/^[imsu]*$/.test(flags)) throw new Incorrect();
  let test: (s: string) => boolean;
  const mode = quirks.regexMode ?? 'regex';
  if (mode === 'substring') test = (s) => s.includes(pattern);
  else if (mode === 'exact') test = (s) => s === pattern;
  else {
    let re: RegExp;
    try {
      re = new RegExp(mode === 'prefix' ? `^(?:${pattern})` : pattern, flags);
    } catch {
      throw new Incorrect();
    }
    test = (s) => re.test(s);
  }
  const one = (v: unknown) => typeof v === 'string' && test(v);
  return (d) => values(d).some((v) => (Array.isArray(v) ? v.some(one) : one(v)));
}

/** All values found at a dotted path; arrays met on the way are walked element by element. */
export function collect(value: unknown, parts: string[], i = 0, out: unknown[] = []): unknown[] {
  if (i === parts.length) {
    out.push(value);
    return out;
  }
  if (Array.isArray(value)) {
    const idx = /^\d+$/.test(parts[i]) ? Number(parts[i]) : -1;
    if (idx >= 0) collect(value[idx], parts, i + 1, out);
    for (const el of value) if (typeof el === 'object' && el !== null) collect(el, parts, i, out);
    if (value.length === 0) out.push(undefined);
    return out;
  }
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, parts[i])) {
    return collect((value as Doc)[parts[i]], parts, i + 1, out);
  }
  out.push(undefined);
  return out;
}

function matchesEq(found: unknown[], want: unknown, quirks: FilterQuirks): boolean {
  const eq = (a: unknown) => deepEqual(a, want, quirks.eqCaseInsensitive === true);
  return found.some((v) => {
    if (want === null && v === undefined) return true;
    if (eq(v)) return true;
    return Array.isArray(v) && v.some(eq);
  });
}

function deepEqual(a: unknown, b: unknown, caseInsensitive = false): boolean {
  if (typeof a === 'string' && typeof b === 'string') return caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i], caseInsensitive));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Doc)[k], (b as Doc)[k], caseInsensitive));
}
