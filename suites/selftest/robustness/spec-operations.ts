import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import { encodeQueryPart, encodeSegment } from './hostile';

interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  enum?: unknown[];
}

/** One operation of an OpenAPI document, with what the generators need from it. */
export interface SpecOperation {
  method: string;
  /** Path template, e.g. `/v1/stacks/{stackId}`. */
  template: string;
  operationId: string;
  pathParams: ParamSpec[];
  queryParams: ParamSpec[];
  /** Request body examples of the operation (`example` and every `examples.*.value`). */
  bodyExamples: unknown[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

type Node = Record<string, unknown>;

function deref(doc: Node, node: unknown): Node {
  let current = node as Node;
  for (let hops = 0; typeof current?.$ref === 'string' && hops < 10; hops++) {
    const parts = (current.$ref as string).replace(/^#\//, '').split('/');
    current = parts.reduce<unknown>((acc, p) => (acc as Node)?.[p.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Node;
  }
  return current;
}

function paramSpec(doc: Node, raw: unknown): ParamSpec {
  const p = deref(doc, raw);
  const schema = deref(doc, p.schema ?? {});
  const spec: ParamSpec = { name: String(p.name), in: p.in as ParamSpec['in'] };
  if (Array.isArray(schema.enum)) spec.enum = schema.enum;
  else if (Array.isArray((schema.items as Node | undefined)?.enum)) spec.enum = (schema.items as Node).enum as unknown[];
  return spec;
}

function examplesOf(doc: Node, op: Node): unknown[] {
  const body = deref(doc, op.requestBody);
  const content = (body?.content ?? {}) as Record<string, Node>;
  const out: unknown[] = [];
  for (const media of Object.values(content)) {
    if (media.example !== undefined) out.push(media.example);
    for (const ex of Object.values((media.examples ?? {}) as Record<string, Node>)) {
      const resolved = deref(doc, ex);
      if (resolved.value !== undefined) out.push(resolved.value);
    }
  }
  return out;
}

/** Every operation of the OpenAPI document at `file` (relative to the project root). */
export function loadOperations(file: string): SpecOperation[] {
  const doc = parse(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8')) as Node;
  const out: SpecOperation[] = [];
  for (const [template, rawItem] of Object.entries((doc.paths ?? {}) as Record<string, Node>)) {
    const item = deref(doc, rawItem);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      const op = item[method] as Node | undefined;
      if (op === undefined) continue;
      const params = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((p) => paramSpec(doc, p));
      out.push({
        method: method.toUpperCase(),
        template,
        operationId: String(op.operationId ?? `${method} ${template}`),
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        bodyExamples: examplesOf(doc, op),
      });
    }
  }
  return out;
}

/** A path segment before encoding: literal text, or a reference to an object that only exists at run time. */
export type SegmentValue = string | { ref: string; index: number };

export interface SegmentPlan {
  value: SegmentValue;
  /** 0 encodes as encodeURIComponent, 1 encodes every character, `raw` puts the text on the wire unchanged. */
  enc: 0 | 1 | 'raw';
}

type PathMutation =
  | 'none'
  | 'trailing-slash'
  | 'double-slash'
  | 'drop-last'
  | 'extra-segment'
  | 'upper-case'
  | 'vlatest'
  | 'absolute-form'
  | 'fragment';

export interface TargetPlan {
  segments: SegmentPlan[];
  mutation: PathMutation;
  query: { name: string; value: string; raw: boolean }[];
}

/** Segments put on the wire as they are: invalid percent-encodings, encoded separators, dot segments. */
const RAW_SEGMENTS = ['', '.', '..', '%2F', '%2e%2e', '%00', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%', '%zz', '%252F', ';x=1', 'a%2Fb'];

/** Values for path parameters: `known` (real values, weighted up), odd values, raw wire segments, and long ones. */
export function segmentValue(known: fc.Arbitrary<SegmentValue>, odd: fc.Arbitrary<string>): fc.Arbitrary<SegmentPlan> {
  return fc.oneof(
    { weight: 40, arbitrary: fc.record({ value: known, enc: fc.constantFrom<0 | 1>(0, 0, 0, 1) }) },
    { weight: 5, arbitrary: fc.record({ value: odd, enc: fc.constantFrom<0 | 1>(0, 1) }) },
    { weight: 2, arbitrary: fc.record({ value: fc.constantFrom(...RAW_SEGMENTS), enc: fc.constant<'raw'>('raw') }) },
    // Past the HTTP layer's target limit (8192) and past node's header limit (16 KiB) on the wire.
    { weight: 1, arbitrary: fc.record({ value: fc.constantFrom(9000, 20000).map((n) => 'p'.repeat(n)), enc: fc.constant<'raw'>('raw') }) },
  );
}

export interface TargetOptions {
  /** Values of a path parameter, by parameter name. */
  pathValue(param: string, op: SpecOperation): fc.Arbitrary<SegmentPlan>;
  /** Values of a query parameter, by name (documented names and odd ones alike). */
  queryValue(name: string): fc.Arbitrary<string>;
  /** Query names besides the operation's own. */
  extraQueryNames: readonly string[];
  /** Interface segment names after which `vLatest` may follow. */
  vlatestAfter?: readonly string[];
}

/** Target plans for `op`: its template filled, sometimes mutated, with a query string of its own and odd parameters. */
export function targetPlan(op: SpecOperation, opts: TargetOptions): fc.Arbitrary<TargetPlan> {
  const parts = op.template.split('/').slice(1);
  const segments = fc.tuple(
    ...parts.map((part): fc.Arbitrary<SegmentPlan> => {
      const param = /^\{(.+)\}$/.exec(part)?.[1];
      if (param !== undefined) return opts.pathValue(param, op);
      // A literal segment is mostly sent as is; fully percent-encoded it is still the same segment.
      return fc.constantFrom<SegmentPlan>(
        { value: part, enc: 'raw' },
        { value: part, enc: 'raw' },
        { value: part, enc: 'raw' },
        { value: part, enc: 1 },
      );
    }),
  );
  const names = [...new Set([...op.queryParams.map((p) => p.name), ...opts.extraQueryNames])];
  const query: fc.Arbitrary<TargetPlan['query']> =
    names.length === 0
      ? fc.constant([])
      : fc.array(
          fc.constantFrom(...names).chain((name) =>
            fc.record({
              name: fc.oneof(
                { weight: 9, arbitrary: fc.constant(name) },
                { weight: 1, arbitrary: fc.constantFrom(`${name}[]`, name.toUpperCase(), `${name} `) },
              ),
              value: opts.queryValue(name),
              raw: fc.boolean(),
            }),
          ),
          { maxLength: 4 },
        );
  const mutation = fc.oneof(
    { weight: 16, arbitrary: fc.constant<PathMutation>('none') },
    {
      weight: 1,
      arbitrary: fc.constantFrom<PathMutation>(
        'trailing-slash',
        'double-slash',
        'drop-last',
        'extra-segment',
        'upper-case',
        'vlatest',
        'absolute-form',
        'fragment',
      ),
    },
  );
  return fc.record({ segments: segments.map((s) => [...s]), mutation, query });
}

/** Resolves a run-time reference; `previous` is the text of the segment before it (e.g. the object type of a key). */
export type Resolve = (ref: string, index: number, previous: string | undefined) => string;

function segmentTexts(plan: TargetPlan, resolve: Resolve): string[] {
  const texts: string[] = [];
  for (const s of plan.segments) texts.push(typeof s.value === 'string' ? s.value : resolve(s.value.ref, s.value.index, texts.at(-1)));
  return texts;
}

/** The request target of a plan, with run-time references resolved by `resolve`. */
export function materialise(plan: TargetPlan, resolve: Resolve, vlatestAfter: readonly string[] = []): string {
  const texts = segmentTexts(plan, resolve);
  let segments = plan.segments.map((s, i) => (s.enc === 'raw' ? texts[i]! : encodeSegment(texts[i]!, s.enc)));
  switch (plan.mutation) {
    case 'drop-last':
      segments = segments.slice(0, -1);
      break;
    case 'extra-segment':
      segments = [...segments, 'extra'];
      break;
    case 'upper-case':
      segments = segments.map((s) => s.toUpperCase());
      break;
    case 'vlatest': {
      const at = segments.findIndex((s) => vlatestAfter.includes(s));
      if (at !== -1) segments.splice(at + 1, 0, 'vLatest');
      break;
    }
    default:
      break;
  }
  let path = `/${segments.join('/')}`;
  if (plan.mutation === 'trailing-slash') path += '/';
  if (plan.mutation === 'double-slash') path = path.replace('/', '//');
  const query = plan.query.map((q) => `${encodeQueryPart(q.name, q.raw)}=${encodeQueryPart(q.value, q.raw)}`).join('&');
  let target = query === '' ? path : `${path}?${query}`;
  if (plan.mutation === 'absolute-form') target = `http://example.test${target}`;
  if (plan.mutation === 'fragment') target += '#frag';
  return target;
}
