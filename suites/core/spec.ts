import type { ValidateFunction, ErrorObject } from 'ajv';
import { createAjv, exercised } from './ajv';
import { type QueryParameters, queryDepartures, queryParametersOf } from './query-shape';
import { readYaml } from './yaml-cache';

interface Operation {
  id: string;
  method: string;
  path: string;
  requirements: string[];
  /** Status codes (and 'default') the spec lists for the operation. */
  statuses: string[];
}

interface SchemaFinding {
  requirement: string;
  at: string;
  message: string;
}

interface ValidationOutcome {
  /** Requirements whose schema nodes the body reached, failing or not. */
  exercised: string[];
  findings: SchemaFinding[];
}

export interface Spec {
  doc: any;
  operations: Map<string, Operation>;
  contentTypeRequirement: string | null;
  listedStatusesRequirement: string | null;
  /** Validator for the JSON body of `status` answered by `operationId`; undefined when the spec gives no schema. */
  responseSchema(operationId: string, status: number): ValidationTarget | undefined;
  /** Validator for any schema under components.schemas, for checks that validate a part of a body. */
  componentSchema(name: string): ValidationTarget;
  /** Every requirement the spec attaches to a schema, plus the cross-cutting ones of info.x-conformance. */
  requirementIds(): string[];
  /** Whether the spec says this response has a body at all. */
  responseHasBody(operationId: string, status: number): boolean | undefined;
  /**
   * Where a request to `operationId` with this body and URL departs from the documented request shape (a required
   * body missing, a body that is not JSON, one the request schema refuses, a query parameter the operation does not
   * give or a value its schema refuses); empty when it is inside it.
   */
  requestDepartures(operationId: string, body: string | undefined, url?: string): string[];
}

interface ValidationTarget {
  /** The requirement of the schema's root: what a missing or non-JSON body breaks. */
  rootRequirement: string;
  validate(data: unknown): ValidationOutcome;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Maps every schema node to the requirement of its nearest annotated ancestor in the document tree. */
function annotate(node: unknown, inherited: string | undefined, into: WeakMap<object, string>): void {
  if (node === null || typeof node !== 'object') return;
  const own = (node as Record<string, unknown>)['x-requirement'];
  const current = typeof own === 'string' ? own : inherited;
  if (current) into.set(node, current);
  for (const child of Object.values(node)) annotate(child, current, into);
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const loaded = new Map<string, Spec>();

/** The spec in `file`, read and its schemas compiled once per process. */
export function specOf(file: string): Spec {
  let spec = loaded.get(file);
  if (!spec) loaded.set(file, (spec = loadSpec(file)));
  return spec;
}

function loadSpec(file: string): Spec {
  const doc = readYaml(file);
  const id = `https://conformance.local/${encodeURIComponent(file)}`;
  const ajv = createAjv();
  ajv.addSchema({ ...doc, $id: id });
  const owners = new WeakMap<object, string>();
  annotate(doc, undefined, owners);
  const operations = operationsOf(doc);
  const conformance = doc.info?.['x-conformance'] ?? {};
  const cache = new Map<string, ValidationTarget | undefined>();
  const schemas: Schemas = { doc, id, ajv, owners };
  const responseEntry = (operationId: string, status: number) => responseEntryOf(doc, operations, operationId, status);
  const bodyDepartures = bodyDeparturesOf(schemas, operations);
  const queryParameters = new Map<string, QueryParameters>();
  const queryOf = (operationId: string): QueryParameters => {
    let q = queryParameters.get(operationId);
    if (!q) {
      const op = operations.get(operationId)!;
      queryParameters.set(operationId, (q = queryParametersOf(doc, op.path, op.method.toLowerCase())));
    }
    return q;
  };

  return {
    doc,
    operations,
    requestDepartures(operationId, body, url) {
      const inQuery = url ? queryDepartures(queryOf(operationId), url) : [];
      return [...bodyDepartures(operationId, body), ...inQuery];
    },
    requirementIds() {
      const found = new Set<string>();
      const walk = (n: unknown) => {
        if (!n || typeof n !== 'object') return;
        const r = (n as Record<string, unknown>)['x-requirement'];
        if (typeof r === 'string') found.add(r);
        Object.values(n).forEach(walk);
      };
      walk(doc);
      for (const r of [conformance['content-type'], conformance['listed-statuses']]) if (r) found.add(r);
      return [...found].sort();
    },
    contentTypeRequirement: conformance['content-type'] ?? null,
    listedStatusesRequirement: conformance['listed-statuses'] ?? null,
    responseHasBody(operationId, status) {
      const { response } = responseEntry(operationId, status);
      if (!response) return undefined;
      return Boolean(response.content);
    },
    responseSchema(operationId, status) {
      const cacheKey = `${operationId} ${status}`;
      if (cache.has(cacheKey)) return cache.get(cacheKey);
      const { op, key, raw, response } = responseEntry(operationId, status);
      let result: ValidationTarget | undefined;
      if (key && response?.content?.['application/json']?.schema) {
        const base = raw.$ref ? raw.$ref.slice(1) : `/${pointer('paths', op.path, op.method.toLowerCase(), 'responses', key)}`;
        result = validationTarget(schemas, `${base}/content/application~1json/schema`, op.requirements[0]);
      }
      cache.set(cacheKey, result);
      return result;
    },
    componentSchema(name) {
      if (!doc.components?.schemas?.[name]) throw new Error(`unknown schema ${name}`);
      return validationTarget(schemas, `/components/schemas/${pointer(name)}`, undefined);
    },
  };
}

/** The document with its schemas compiled under `id`, and the requirement that owns each schema node. */
interface Schemas {
  doc: any;
  id: string;
  ajv: ReturnType<typeof createAjv>;
  owners: WeakMap<object, string>;
}

/** Every operation of the document with an operationId, by that id. */
function operationsOf(doc: any): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      operations.set(op.operationId, {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        requirements: op['x-requirements'] ?? [],
        statuses: Object.keys(op.responses ?? {}),
      });
    }
  }
  return operations;
}

/** The validator of the schema at `ref`, its findings attributed to the requirements of the nodes they fail. */
function validationTarget({ doc, id, ajv, owners }: Schemas, ref: string, fallback: string | undefined): ValidationTarget {
  const fn = ajv.getSchema(`${id}#${ref}`) as ValidateFunction;
  const node = resolve(doc, { $ref: `#${ref}` });
  const root =
    node?.['x-requirement'] ??
    (node?.$ref ? resolve(doc, node)?.['x-requirement'] : undefined) ??
    owners.get(node) ??
    fallback ??
    'unattributed';
  return {
    rootRequirement: root,
    validate(data) {
      exercised.clear();
      fn(data);
      const findings = attributeBranches(fn.errors ?? [], doc).map((e) => finding(e, owners, fallback));
      return { exercised: [...exercised], findings };
    },
  };
}

/** The response the document gives `operationId` for `status`: the status itself, its class (2XX) or default. */
function responseEntryOf(doc: any, operations: Map<string, Operation>, operationId: string, status: number) {
  const op = operations.get(operationId);
  if (!op) throw new Error(`unknown operation ${operationId}`);
  const item = doc.paths[op.path][op.method.toLowerCase()];
  const key = item.responses[String(status)]
    ? String(status)
    : item.responses[`${String(status)[0]}XX`]
      ? `${String(status)[0]}XX`
      : item.responses.default
        ? 'default'
        : undefined;
  return { op, item, key, raw: key ? item.responses[key] : undefined, response: key ? resolve(doc, item.responses[key]) : undefined };
}

/** Where a request body departs from the operation's documented one; each operation's request schema compiled once. */
function bodyDeparturesOf({ doc, id, ajv }: Schemas, operations: Map<string, Operation>) {
  const requestTargets = new Map<string, { required: boolean; validate?: ValidateFunction }>();
  const requestTarget = (operationId: string) => {
    let t = requestTargets.get(operationId);
    if (!t) {
      const op = operations.get(operationId);
      const item = op ? doc.paths[op.path][op.method.toLowerCase()] : undefined;
      const rb = item?.requestBody ? resolve(doc, item.requestBody) : undefined;
      const hasSchema = Boolean(rb?.content?.['application/json']?.schema);
      const ref = op ? pointer('', 'paths', op.path, op.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema') : '';
      t = { required: Boolean(rb?.required), validate: hasSchema ? (ajv.getSchema(`${id}#${ref}`) as ValidateFunction) : undefined };
      requestTargets.set(operationId, t);
    }
    return t;
  };

  return (operationId: string, body: string | undefined): string[] => {
    const t = requestTarget(operationId);
    if (body === undefined || body === '') return t.required ? ['no body, where the operation requires one'] : [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return t.validate ? ['a body that is not JSON'] : [];
    }
    if (!t.validate || t.validate(parsed)) return [];
    return (t.validate.errors ?? []).slice(0, 3).map((e) => `body${e.instancePath} ${e.message ?? 'is outside the schema'}`);
  };
}

function resolve(doc: any, node: any): any {
  if (!node?.$ref) return node;
  return node.$ref
    .slice(2)
    .split('/')
    .map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((at: any, part: string) => at?.[part], doc);
}

/**
 * A body that fails one branch of an anyOf/oneOf fails it for the reasons of the branch it is shaped as, not for the
 * composition as a whole: keep that branch's own errors (attributed to their innermost requirement and level) and drop
 * the other branches' and the composite error itself, so a field-level deviation never escalates to the whole answer.
 * An if/then failure is likewise told by the errors inside `then`.
 */
function attributeBranches(errors: ErrorObject[], doc: unknown): ErrorObject[] {
  let kept = errors.filter((e) => e.keyword !== 'if');
  const composites = kept.filter((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && Array.isArray(e.schema));
  for (const c of composites) {
    if (!kept.includes(c)) continue;
    const inside = (e: ErrorObject) => e !== c && (e.instancePath === c.instancePath || e.instancePath.startsWith(`${c.instancePath}/`));
    const branches = (c.schema as unknown[]).map((b) => {
      const nodes = branchNodes(b, doc);
      return { nodes, errors: kept.filter((e) => inside(e) && nodes.has(e.parentSchema as object)) };
    });
    // oneOf failing because two branches matched has no branch errors: that is the composite's own finding.
    if (branches.every((b) => b.errors.length === 0)) continue;
    // The branch the body is shaped as: fewest mismatches at the body's own level (type, required), then fewest overall.
    const shallow = (b: { errors: ErrorObject[] }) => b.errors.filter((e) => e.instancePath === c.instancePath).length;
    const best = branches.reduce((a, b) =>
      shallow(b) < shallow(a) || (shallow(b) === shallow(a) && b.errors.length < a.errors.length) ? b : a,
    );
    const others = new Set(branches.filter((b) => b !== best).flatMap((b) => b.errors.filter((e) => !best.errors.includes(e))));
    kept = kept.filter((e) => e !== c && !others.has(e));
  }
  return kept;
}

const branchCache = new WeakMap<object, Set<object>>();
function branchNodes(branch: unknown, doc: unknown): Set<object> {
  if (!branch || typeof branch !== 'object') return new Set();
  let nodes = branchCache.get(branch);
  if (!nodes) branchCache.set(branch, (nodes = reachable(branch, doc)));
  return nodes;
}

/** Every schema object reachable from `node`, following local $refs into the document. */
function reachable(node: unknown, doc: unknown, into = new Set<object>()): Set<object> {
  if (!node || typeof node !== 'object' || into.has(node)) return into;
  into.add(node);
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) reachable(resolve(doc, { $ref: ref }), doc, into);
  for (const child of Object.values(node)) reachable(child, doc, into);
  return into;
}

function finding(e: ErrorObject, owners: WeakMap<object, string>, fallback: string | undefined): SchemaFinding {
  const owner = (e.parentSchema && owners.get(e.parentSchema as object)) ?? fallback ?? 'unattributed';
  const where = e.instancePath || '(body)';
  const detail = e.keyword === 'required' ? `missing required field '${(e.params as any).missingProperty}'` : `${e.message}`;
  return { requirement: owner, at: where, message: `${where}: ${detail}` };
}
