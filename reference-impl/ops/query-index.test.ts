import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Doc } from './config';
import { createFilterCompiler } from './filter';
import { countCollection, listCollection, listRows, type RowSource } from './query';
import { createStore } from './store';

/**
 * The indexed list (equality and sorted indexes, early stop at the page's end) must answer exactly what the plain
 * scan answers: same rows, same order, same projection, same total and count, after any sequence of writes.
 */

const COLLECTION = 'service';
const filters = createFilterCompiler(1000);

// Small pools so that values repeat (ties, shared buckets) and keys are rewritten and deleted.
const KEYS = Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`);
const scalar = fc.oneof(
  fc.constantFrom('gold', 'silver', 'Gold', '', 'a', 'b', '10', 'é'),
  fc.constantFrom(0, -0, 1, 2, 7, 10, -1, 2.5),
  fc.constantFrom(true, false, null),
);
const anyValue = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'b'), scalar, { maxKeys: 2 }) },
);
const FIELDS = ['title', 'tier', 'n', 'code', 'nested', '__proto__', 'constructor'] as const;
const GROUPS = ['g1', 'g2', 'default_ops_security_group'];

const docArb: fc.Arbitrary<Doc> = fc
  .record(
    {
      _key: fc.constantFrom(...KEYS),
      title: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom('svc a', 'svc b', 'svc c', 'Svc a', 'zz') },
        { weight: 1, arbitrary: anyValue },
      ),
      tier: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('gold', 'silver') }, { weight: 1, arbitrary: anyValue }),
      n: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 9 }) }, { weight: 1, arbitrary: anyValue }),
      // Many distinct values, so one value's rows are a small share of the collection.
      code: fc.integer({ min: 0, max: 60 }),
      nested: fc.record({ a: anyValue }, { requiredKeys: [] }),
      sec_grp: fc.constantFrom(...GROUPS),
      odd: anyValue,
    },
    { requiredKeys: ['_key'] },
  )
  .chain((doc) =>
    // Own members named like Object.prototype's, as JSON.parse makes them from a body.
    fc.record({ proto: fc.option(scalar, { nil: undefined }), ctor: fc.option(scalar, { nil: undefined }) }).map(({ proto, ctor }) => {
      const out = JSON.parse(JSON.stringify(doc)) as Doc;
      if (proto !== undefined)
        Object.defineProperty(out, '__proto__', { value: proto, enumerable: true, writable: true, configurable: true });
      if (ctor !== undefined)
        Object.defineProperty(out, 'constructor', { value: ctor, enumerable: true, writable: true, configurable: true });
      return out;
    }),
  );

const condition = fc.oneof(
  scalar,
  scalar.map((v) => ({ $eq: v })),
  fc.array(scalar, { minLength: 1, maxLength: 3 }).map((vs) => ({ $in: vs })),
  fc.array(scalar, { maxLength: 2 }).map((vs) => ({ $nin: vs })),
  scalar.map((v) => ({ $ne: v })),
  fc.tuple(fc.constantFrom('$gt', '$gte', '$lt', '$lte'), scalar).map(([op, v]) => ({ [op]: v })),
  fc.boolean().map((b) => ({ $exists: b })),
  fc.constantFrom(
    { $regex: 'a' },
    { $regex: '^svc', $options: 'i' },
    { $type: 'string' },
    { $type: 'bogus_alias' },
    { $size: 1 },
    { a: 1 },
    {},
  ),
);
const fieldName = fc.constantFrom(...FIELDS, 'nested.a', 'missing', 'sec_grp', '_key');
const filterArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fieldName, condition, { minKeys: 1, maxKeys: 3 }).map((f) => JSON.stringify(f)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fieldName, condition, fieldName, condition)
      .map(([a, ca, b, cb]) => JSON.stringify({ $or: [{ [a]: ca }, { [b]: cb }] })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(undefined, '', '{}', 'not json', '[1]', '{"$where":"1"}', '{"code":{"$in":[1,2,3]},"tier":"gold"}'),
  },
);

const queryArb: fc.Arbitrary<Query> = fc.record(
  {
    filter: filterArb,
    sort_key: fc.constantFrom(...FIELDS, 'nested.a', 'missing', '_key', 'odd', ' title '),
    sort_dir: fc.constantFrom('0', '1', 'desc'),
    offset: fc.integer({ min: 0, max: 12 }).map(String),
    limit: fc.integer({ min: 0, max: 8 }).map(String),
    fields: fc.constantFrom('title', 'title,nested.a', 'code'),
  },
  { requiredKeys: [] },
);

type Query = Partial<Record<'filter' | 'sort_key' | 'sort_dir' | 'offset' | 'limit' | 'fields', string | undefined>>;
type Op = { put: Doc } | { del: string } | { query: Query; group: string | undefined; needTotal: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: docArb.map((doc) => ({ put: doc })) },
  { weight: 1, arbitrary: fc.constantFrom(...KEYS).map((key) => ({ del: key })) },
  { weight: 3, arbitrary: fc.record({ query: queryArb, group: fc.constantFrom(undefined, 'g1', 'g2'), needTotal: fc.boolean() }) },
);

function toParams(q: Query): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, v);
  return params;
}

function check(store: ReturnType<typeof createStore>, op: Extract<Op, { query: Query }>): void {
  const visible = op.group === undefined ? undefined : (d: Doc) => d.sec_grp === op.group;
  const src: RowSource = visible === undefined ? { store, collection: COLLECTION } : { store, collection: COLLECTION, visible };
  const params = toParams(op.query);
  const everyRow = store.all(COLLECTION).filter((d) => visible === undefined || visible(d));
  const scan = listRows(everyRow, params, filters);
  const indexed = listCollection(src, params, filters, { needTotal: op.needTotal });
  expect(indexed.ok).toBe(scan.ok);
  if (!scan.ok || !indexed.ok) return;
  expect(indexed.value.rows).toEqual(scan.value.rows);
  expect(indexed.value.rows.map((r) => r._key)).toEqual(scan.value.rows.map((r) => r._key));
  expect(indexed.value.fields).toEqual(scan.value.fields);
  if (op.needTotal) expect(indexed.value.total).toBe(scan.value.total);
  // Without projection the very stored documents come back.
  const whole = new URLSearchParams(params);
  whole.delete('fields');
  const scanWhole = listRows(everyRow, whole, filters);
  const indexedWhole = listCollection(src, whole, filters);
  if (scanWhole.ok && indexedWhole.ok) {
    expect(indexedWhole.value.rows.length).toBe(scanWhole.value.rows.length);
    indexedWhole.value.rows.forEach((r, i) => {
      expect(r).toBe(scanWhole.value.rows[i]);
    });
  }
  const expectedCount = everyRow.filter(filters.compile(params.get('filter'))).length;
  expect(countCollection(src, params, filters)).toEqual({ ok: true, value: expectedCount });
}

describe('indexed list and count', () => {
  it('answer exactly what the plain scan answers, on random data, writes and queries', () => {
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 0, maxLength: 120 }), fc.array(opArb, { maxLength: 60 }), (initial, ops) => {
        const store = createStore();
        for (const doc of initial) store.put(COLLECTION, doc);
        for (const op of ops) {
          if ('put' in op) store.put(COLLECTION, op.put);
          else if ('del' in op) store.delete(COLLECTION, op.del);
          else check(store, op);
        }
      }),
      { numRuns: Number(process.env.QUERY_INDEX_RUNS ?? 300) },
    );
  });

  it('use the indexes on a large collection and still match the scan', () => {
    const store = createStore();
    for (let i = 0; i < 5000; i++) {
      store.put(COLLECTION, {
        _key: `k${i}`,
        title: `svc ${String(i % 1700).padStart(4, '0')}`,
        tier: i % 3 === 0 ? 'gold' : 'silver',
        code: i % 400,
        sec_grp: GROUPS[i % 3],
      });
    }
    const queries: Query[] = [
      { filter: '{"tier":"gold","code":{"$ne":7}}', sort_key: 'title', sort_dir: '0', offset: '40', limit: '20' },
      { filter: '{"code":5}', sort_key: 'title', sort_dir: '1', limit: '3' },
      { filter: '{"code":{"$in":[5,6]}}', limit: '4', offset: '2' },
      { filter: '{"title":{"$regex":"9$"}}', limit: '20' },
      { sort_key: 'title', limit: '10', offset: '4990' },
      { filter: '{"tier":"gold"}', fields: 'title' },
    ];
    for (const query of queries) {
      for (const group of [undefined, 'g1']) {
        check(store, { query, group, needTotal: false });
        check(store, { query, group, needTotal: true });
      }
      // Writes after the indexes exist keep them right.
      store.put(COLLECTION, { _key: 'k7', title: 'svc 0000', tier: 'gold', code: 5, sec_grp: 'g1' });
      store.delete(COLLECTION, `k${queries.indexOf(query) * 3}`);
      store.put(COLLECTION, { _key: 'new', title: ['array', 'title'], tier: 'gold', code: 5 });
      check(store, { query, group: undefined, needTotal: true });
      store.delete(COLLECTION, 'new');
    }
  });
});
