import fc from 'fast-check';

/** Nesting depth of the deep bodies: beyond what V8's JSON.stringify and structuredClone manage on a default stack. */
const DEEP = 5000;
/** Characters of the long strings: 1 MB, still under the HTTP layer's 1 MiB body limit once wrapped in JSON. */
const LONG = 1_000_000;
/** Elements of the huge arrays. */
const HUGE = 100_000;

function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const deepArrayText = lazy(() => '['.repeat(DEEP) + ']'.repeat(DEEP));
export const deepObjectText = lazy(() => '{"a":'.repeat(DEEP) + '"x"' + '}'.repeat(DEEP));
const longString = lazy(() => 'a'.repeat(LONG));
/** A long string of comma-separated identifiers: endpoints that split id lists must not do work per element. */
export const longIdList = lazy(() => Array.from({ length: HUGE }, (_, i) => `ep${i}`).join(','));
const hugeNumberArrayText = lazy(() => `[${new Array(HUGE).fill('0').join(',')}]`);
const hugeStringArrayText = lazy(() => `[${new Array(HUGE).fill('"x"').join(',')}]`);

/** Strings that break naive code: encodings, prototype names, control and bidi characters, lone surrogates. */
const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202egnp.exe',
  '\u05e9\u05dc\u05d5\u05dd',
  '\ufeff',
  '\u{1f4a9}',
  'e\u0301',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x10',
  '9007199254740993',
  '..',
  '../../etc/passwd',
  '%00',
  '%E0%A4%A',
  '%ED%A0%80',
  '%2F',
  '*',
  '$where',
  '{"$where":"sleep(1000)"}',
  '{"title":{"$regex":"(a+)+$"}}',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '\r\nX-Injected: 1',
  'x'.repeat(5000),
];

/** Odd strings of ordinary size, for path segments and query values. */
export const oddShortString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

/** Odd strings, now and then a 1 MB one or a 100k-element comma list. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 18, arbitrary: oddShortString },
  { weight: 1, arbitrary: fc.constant(null).map(() => longString()) },
  { weight: 1, arbitrary: fc.constant(null).map(() => longIdList()) },
);

/** Numbers JSON can carry, including the ones that lose precision or overflow to Infinity when parsed. */
const oddNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 1.5, 2 ** 53 + 1, -(2 ** 31), 1e308, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** JSON values where a string, number or object is expected, built from `strings` (e.g. real keys) and odd values. */
export function oddValue(strings: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      strings,
      oddNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(
        fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', '_key', 'title'), fc.string({ maxLength: 6 })),
        tie('value'),
        { maxKeys: 3 },
      ),
    ),
  }));
  return value;
}

/** Serialises `value`; own `__proto__` members survive (JSON.stringify keeps own properties of that name). */
function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

const INVALID_JSON = [
  '{',
  '}',
  '{"a":}',
  '{"a":1,}',
  '[1,2',
  "{'a':1}",
  'nul',
  'undefined',
  'NaN',
  '\ufeff{}',
  '{"a":"\\x41"}',
  '{"a":1}{"b":2}',
  '--',
  '\u0000',
  '{"a": 01}',
];

/**
 * Body texts: none, invalid JSON, deep nesting, 1 MB strings, 100k-element arrays, prototype keys, odd Unicode,
 * and `plausible` (bodies close to what an endpoint takes), alone or with one member swapped for a hostile value.
 */
export function bodyText(plausible: fc.Arbitrary<Record<string, unknown> | unknown[]>): fc.Arbitrary<string> {
  const hostileMember = fc.constantFrom<() => string>(
    deepArrayText,
    deepObjectText,
    () => JSON.stringify(longString()),
    () => JSON.stringify(longIdList()),
    hugeNumberArrayText,
    hugeStringArrayText,
    () => '"\\ud800\\u0000\\u202e"',
    () => '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
  );
  const withHostileMember = fc
    .tuple(
      plausible,
      fc.oneof(fc.constant(undefined), fc.constantFrom('extra', 'description', 'data', 'content', 'platformVersion')),
      hostileMember,
    )
    .map(([base, name, member]) => {
      if (Array.isArray(base)) {
        const json = toJson(base);
        return `[${member()}${json.length > 2 ? `,${json.slice(1)}` : ']'}`;
      }
      // Under an existing member name (validation has to look at it) or an extra one (it may be stored as is);
      // the member is taken out of the rest, as JSON.parse keeps the last of two equal names.
      const key = name ?? Object.keys(base)[0] ?? 'extra';
      const rest: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(base)) if (k !== key) Object.defineProperty(rest, k, { value: v, enumerable: true });
      const json = toJson(rest);
      return `{${JSON.stringify(key)}:${member()}${json.length > 2 ? `,${json.slice(1)}` : '}'}`;
    });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 8, arbitrary: plausible.map(toJson) },
    { weight: 6, arbitrary: withHostileMember },
    { weight: 2, arbitrary: fc.constantFrom(...INVALID_JSON) },
    { weight: 1, arbitrary: fc.constantFrom(deepArrayText, deepObjectText, hugeNumberArrayText, hugeStringArrayText).map((f) => f()) },
    { weight: 1, arbitrary: fc.constant(null).map(() => JSON.stringify(longString())) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype').map((k) => `{"${k}":{"title":"t","polluted":1},"title":"t"}`),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(toJson) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  );
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** Methods for in-process calls, where node's parser does not stand in the way of odd spellings. */
export const methodInProcess: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...METHODS) },
  { weight: 1, arbitrary: fc.constantFrom('post', 'Delete', 'TRACE', 'CONNECT', 'PROPFIND', 'FOO', '') },
);

export const methodOnWire: fc.Arbitrary<string> = fc.constantFrom(...METHODS);

export const contentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/JSON;charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/xml',
  '',
  '*/*',
  'application/json; charset=utf-16',
);

/** Extra request headers, spelled so node's client accepts them (token names, visible ASCII values). */
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    'x-http-method-override',
    'accept',
    'accept-encoding',
    'x-forwarded-for',
    'origin',
    'cookie',
    'x-request-id',
    'if-none-match',
    'range',
    'expect-ct',
  ),
  fc.oneof(
    fc.constantFrom('DELETE', '*/*', 'gzip', '127.0.0.1', 'null', 'a=b', 'bytes=0-1', 'x'.repeat(2000)),
    fc.stringMatching(/^[!-~]{0,20}$/),
  ),
  { maxKeys: 3 },
);

const fixSurrogates = (text: string) => text.replace(/[\ud800-\udfff]/gu, '\ufffd');

/** Encodes a query pair, sometimes leaving reserved characters raw so the parser meets `&`, `=`, `%` and `+` alone. */
export function encodeQueryPart(text: string, raw: boolean): string {
  if (!raw) return encodeURIComponent(fixSurrogates(text));
  // Raw, except what would end the target early or cannot go on the wire.
  return text.replace(/[^\x21-\x7e]|#/gu, (c) => encodeURIComponent(fixSurrogates(c)));
}

/** Percent-encodes a path segment; `mode` 1 also encodes unreserved characters (still the same segment once decoded). */
export function encodeSegment(segment: string, mode: 0 | 1): string {
  const safe = encodeURIComponent(fixSurrogates(segment));
  if (mode === 0) return safe;
  return safe.replace(/[A-Za-z0-9_.~-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * Every hostile variant of a body, named: deep nesting, 1 MB strings, 100k arrays and odd Unicode under the first
 * member and under an extra one, numbers where strings are, prototype keys, and hostile whole bodies.
 */
export function hostileVariants(base: Record<string, unknown> | unknown[]): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const members: [string, () => string][] = [
    ['deep array', deepArrayText],
    ['deep object', deepObjectText],
    ['1 MB string', () => JSON.stringify(longString())],
    ['100k-id comma list', () => JSON.stringify(longIdList())],
    ['100k numbers', hugeNumberArrayText],
    ['100k strings', hugeStringArrayText],
    ['lone surrogates, NUL, RTL', () => '"\\ud800x\\udfff\\u0000\\u202e"'],
    ['prototype keys', () => '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}'],
    ['a number', () => '1e308'],
  ];
  const record = Array.isArray(base) ? base[0] : base;
  const rest = (obj: Record<string, unknown>, without: string) => {
    const copy = { ...obj };
    delete copy[without];
    const json = JSON.stringify(copy);
    return json.length > 2 ? `,${json.slice(1, -1)}` : '';
  };
  const wrap = (text: string) =>
    Array.isArray(base) ? `[${text}${base.length > 1 ? `,${JSON.stringify(base.slice(1)).slice(1, -1)}` : ''}]` : text;
  if (typeof record === 'object' && record !== null && !Array.isArray(record)) {
    const obj = record as Record<string, unknown>;
    // The first and last members (validated early and late) and an extra one (possibly stored as is).
    const keys = Object.keys(obj);
    const names = [...new Set([keys[0], keys.at(-1), 'extra'].filter((k): k is string => k !== undefined))];
    for (const name of names) {
      for (const [label, member] of members)
        out.push({ name: `${label} in ${name}`, text: wrap(`{${JSON.stringify(name)}:${member()}${rest(obj, name)}}`) });
    }
    for (const proto of ['__proto__', 'constructor', 'prototype']) {
      out.push({ name: `own ${proto} member`, text: wrap(`{${JSON.stringify(proto)}:{"polluted":1,"title":"p"}${rest(obj, proto)}}`) });
    }
  }
  out.push(
    { name: 'deep array body', text: deepArrayText() },
    { name: 'deep object body', text: deepObjectText() },
    { name: '100k-element body', text: hugeNumberArrayText() },
    { name: '1 MB string body', text: JSON.stringify(longString()) },
    { name: 'copies of the body up to 1 MB', text: copiesUpTo(JSON.stringify(record ?? {}), LONG) },
  );
  return out;
}

/** A JSON array of as many copies of `json` as fit in `limit` characters (at most HUGE): the HTTP layer takes no more. */
function copiesUpTo(json: string, limit: number): string {
  const count = Math.max(1, Math.min(HUGE, Math.floor(limit / (json.length + 1))));
  return `[${new Array(count).fill(json).join(',')}]`;
}
