import { isDeepStrictEqual } from 'node:util';
import type { AssertionKind, Exchange, Reach } from './types';

/** What an assertion compared: both sides as short text, kept on the record for the reports, and its kind. */
export interface Facts {
  expected: string;
  actual: string;
  kind?: AssertionKind;
  /** What the assertion judged when it judged more than one exchange (a property's traffic: CheckContext.traffic). */
  reached?: Reach[];
}

/** Records one assertion against a declared requirement (the context's `assert` path) with its facts. */
export type Recorder = (requirement: string, ok: boolean, message: string, ex: Exchange | undefined, facts: Facts) => boolean;

/** An item a collection must (or must not) hold, told by a test rather than by equality. */
interface Matcher {
  describe: string;
  test: (item: unknown) => boolean;
}

/** A status, one of several, or a class; `not 2xx` is any refusal, for answers whose status the document does not give. */
type StatusExpectation = number | readonly number[] | '2xx' | '4xx' | 'not 2xx';

/**
 * The assertions checks make: each records exactly one outcome against one requirement, under `what` (the same
 * words whether it passes or fails), with what was expected and what was seen; each returns whether it held. Every
 * method takes its arguments in one order: the requirement, `what`, the thing looked at, what was expected, and the
 * exchange last where it is not itself the thing looked at.
 */
export interface Expect<Req extends string = string> {
  /** The status of the answer `ex`. */
  status(requirement: Req, what: string, ex: Exchange, expected: StatusExpectation): boolean;
  /** Deep equality (node:util isDeepStrictEqual). */
  equal(requirement: Req, what: string, actual: unknown, expected: unknown, ex?: Exchange): boolean;
  /** The value is one of those allowed (deep equality). */
  oneOf(requirement: Req, what: string, actual: unknown, allowed: readonly unknown[], ex?: Exchange): boolean;
  contains(requirement: Req, what: string, collection: Iterable<unknown> | undefined, item: unknown, ex?: Exchange): boolean;
  absent(requirement: Req, what: string, collection: Iterable<unknown> | undefined, item: unknown, ex?: Exchange): boolean;
  /** Any other predicate: the check words what it expected; `actual` is shown as text when it is a string, else as compact JSON. */
  that(requirement: Req, what: string, ok: boolean, facts: { expected: string; actual: unknown }, ex?: Exchange): boolean;
}

const LIMIT = 300;

/** A value as compact JSON, cut to a few hundred characters: the one way facts are written. */
export function compact(v: unknown): string {
  let text: string;
  if (v === undefined) text = 'absent';
  else if (typeof v === 'bigint') text = String(v);
  else if (v instanceof Set) text = JSON.stringify([...v]);
  else text = JSON.stringify(v) ?? String(v);
  return text.length > LIMIT ? `${text.slice(0, LIMIT)}… (${text.length} chars)` : text;
}

const described = (v: unknown) =>
  typeof v === 'string' ? (v.length > LIMIT ? `${v.slice(0, LIMIT)}… (${v.length} chars)` : v) : compact(v);

/** A predicate's facts as recorded: the check's own wording of what it expected, and what it saw. */
export const factsOf = (f: { expected: string; actual: unknown }): Facts => ({
  expected: described(f.expected),
  actual: described(f.actual),
});

const isMatcher = (v: unknown): v is Matcher =>
  typeof v === 'object' && v !== null && typeof (v as Matcher).test === 'function' && typeof (v as Matcher).describe === 'string';

/** Equal by value, or accepted by the matcher. */
const matches = (item: unknown) => (x: unknown) => (isMatcher(item) ? item.test(x) : isDeepStrictEqual(x, item));

/** `what`, and on failure the facts after it when both are short enough to read on one line. */
function messageOf(what: string, ok: boolean, f: Facts): string {
  if (ok || f.expected.length + f.actual.length > 120) return what;
  return `${what}: expected ${f.expected}, got ${f.actual}`;
}

/** A status class is judged by what the answer is: a 2xx that refuses (Exchange.refusal) is a refusal, not a success. */
function statusHolds(ex: Exchange, expected: StatusExpectation): boolean {
  const { status } = ex;
  if (expected === '2xx') return status >= 200 && status < 300 && !ex.refusal;
  if (expected === '4xx') return status >= 400 && status < 500;
  if (expected === 'not 2xx') return status < 200 || status >= 300 || ex.refusal === true;
  return typeof expected === 'number' ? status === expected : expected.includes(status);
}

const statusSeen = (ex: Exchange) => (ex.refusal ? `${ex.status}, a refusal: ${ex.text.trim().slice(0, 80)}` : String(ex.status));

const statusText = (expected: StatusExpectation) =>
  typeof expected === 'number' || typeof expected === 'string'
    ? String(expected)
    : expected.length === 1
      ? String(expected[0])
      : `one of ${expected.join(', ')}`;

export function createExpect(record: Recorder): Expect {
  const put = (kind: AssertionKind, requirement: string, ok: boolean, what: string, facts: Facts, ex?: Exchange) =>
    record(requirement, ok, messageOf(what, ok, facts), ex, { ...facts, kind });
  return {
    status: (requirement, what, ex, expected) =>
      put('status', requirement, statusHolds(ex, expected), what, { expected: statusText(expected), actual: statusSeen(ex) }, ex),
    equal: (requirement, what, actual, expected, ex) =>
      put('equal', requirement, isDeepStrictEqual(actual, expected), what, { expected: compact(expected), actual: compact(actual) }, ex),
    oneOf: (requirement, what, actual, allowed, ex) =>
      put(
        'one-of',
        requirement,
        allowed.some((a) => isDeepStrictEqual(actual, a)),
        what,
        { expected: allowed.length === 1 ? compact(allowed[0]) : `one of ${allowed.map(compact).join(', ')}`, actual: compact(actual) },
        ex,
      ),
    contains(requirement, what, collection, item, ex) {
      const all = [...(collection ?? [])];
      return put(
        'contains',
        requirement,
        all.some(matches(item)),
        what,
        {
          expected: `with ${isMatcher(item) ? item.describe : compact(item)}`,
          actual: compact(collection === undefined ? undefined : all),
        },
        ex,
      );
    },
    absent(requirement, what, collection, item, ex) {
      const found = [...(collection ?? [])].filter(matches(item));
      return put(
        'absent',
        requirement,
        found.length === 0,
        what,
        {
          expected: `without ${isMatcher(item) ? item.describe : compact(item)}`,
          actual: found.length ? `with ${compact(found.length === 1 ? found[0] : found)}` : 'without it',
        },
        ex,
      );
    },
    that: (requirement, what, ok, facts, ex) => put('predicate', requirement, ok, what, factsOf(facts), ex),
  };
}

/** The facts of a record as one phrase, unless its message already ends with them; undefined for a record without facts. */
export function unsaidFacts(r: { message: string; expected?: string; actual?: string }): string | undefined {
  if (r.expected === undefined || r.actual === undefined) return undefined;
  const text = `expected ${r.expected}, got ${r.actual}`;
  return r.message.endsWith(text) ? undefined : text;
}

/** A record's facts as the text reports print under its message: no lines for a record without facts. */
export const factLines = (r: { expected?: string; actual?: string }): string[] =>
  r.expected === undefined && r.actual === undefined ? [] : [`expected: ${r.expected ?? ''}`, `actual:   ${r.actual ?? ''}`];
