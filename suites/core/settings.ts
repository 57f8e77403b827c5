import type { Environment } from './types';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { UsageError } from './usage-error';

/*
 * The one table of what a run can be told. Each option names its flag, environment variable and config-file key;
 * the command line's parseArgs options and --help text, the config file's JSON Schema, the resolution
 * (flags win over the file, the file over the environment) and the `Settings` type are all derived from it.
 * The run options are below (RUN_OPTIONS); each API declares the variables of its deployment in its own module
 * (`suites/<api>/target.ts`) with the same builders, and the shared code reads them through `ApiDefinition.options`.
 */

export type OptionType = 'string' | 'integer' | 'boolean' | 'list';

/** What a default may depend on: whether the API (for an API's variables) or any API (for run options) has a deployment. */
export interface DefaultContext {
  remote: boolean;
  /** The APIs the product knows. */
  apis: readonly string[];
}

export interface OptionDef<T = unknown> extends Common {
  kind: 'setting';
  type: OptionType;
  /** JSON Schema of the value in the config file. */
  schema: Record<string, unknown>;
  /** The value from its text (flag, environment, or the file's value written as text); `from` names where it came from. */
  parse(raw: string, from: string): T;
  default(c: DefaultContext): T;
}

/** A command-line flag that steers the command itself (--help, --config, --target): in help, not in `Settings`. */
export interface FlagDef {
  kind: 'flag';
  type: 'string' | 'boolean';
  flag: string;
  short?: string;
  arg?: string;
  help: string;
}

export type OptionTable = Record<string, OptionDef | FlagDef>;

type ValueOf<O> = O extends OptionDef<infer T> ? T : never;
type SettingKeys<T> = { [K in keyof T]: T[K] extends OptionDef ? K : never }[keyof T];
/** The values of a table: options that may be unset are optional properties. */
export type OptionValues<T extends OptionTable> = {
  [K in SettingKeys<T> as undefined extends ValueOf<T[K]> ? never : K]: ValueOf<T[K]>;
} & {
  [K in SettingKeys<T> as undefined extends ValueOf<T[K]> ? K : never]?: ValueOf<T[K]>;
};

/** Where each resolved value came from, as the user wrote it: `--api`, `config key 'apis' (run.yaml)`, `CONFORMANCE_APIS`. */
export type Origins = Record<string, string>;

// ---------------------------------------------------------------------------------------------------------------
// Builders

/** What every option may say of itself, wherever it is declared. */
interface Common {
  /** Long flag without the dashes (`seed` is `--seed`); absent for options set only in the environment or the file. */
  flag?: string;
  short?: string;
  /** Environment variable. */
  env?: string;
  /** Key in the config file: at the top level for run options, under `targets.<api>` for an API's variables. */
  key?: string;
  /** Placeholder of the value in help texts (N, LIST, URL). */
  arg?: string;
  /** One line of help; the default, flag and variable are added where they are shown. */
  help: string;
  /** The default as help shows it, when it is not a plain value. */
  defaultText?: string;
  /** Never recorded in reports (API keys, user names, passwords). */
  secret?: boolean;
  /** An API's variable its checks read: handed to them in `ctx.options.apiOptions` (no other is, so no secret reaches a check). */
  exported?: boolean;
  /**
   * An empty value is a mistake, not "unset": what an unset CI secret becomes. The text says what to do instead; the
   * value is refused with it wherever it comes from.
   */
  refuseEmpty?: string;
  /** An API variable that means something only with the API's base URL (credentials, TLS, path segments). */
  deployment?: boolean;
}

const fixed = <T>(v: T | ((c: DefaultContext) => T)) => (typeof v === 'function' ? (v as (c: DefaultContext) => T) : () => v);

const INTEGER = /^\d+$/;

function integer(o: Common & { min?: number; max?: number; default: number | ((c: DefaultContext) => number) }): OptionDef<number>;
function integer(o: Common & { min?: number; max?: number; default?: undefined }): OptionDef<number | undefined>;
function integer(
  o: Common & { min?: number; max?: number; default?: number | ((c: DefaultContext) => number) },
): OptionDef<number | undefined> {
  const min = o.min ?? 0;
  return {
    kind: 'setting',
    type: 'integer',
    arg: 'N',
    ...o,
    schema: { type: 'integer', minimum: min, ...(o.max !== undefined ? { maximum: o.max } : {}) },
    parse: (raw, from) => parseInteger(raw, from, min, o.max),
    default: o.default === undefined ? () => undefined : fixed(o.default),
  };
}

function parseInteger(raw: string, from: string, min: number, max?: number): number {
  const text = raw.trim();
  const n = Number(text);
  if (!INTEGER.test(text) || n < min || (max !== undefined && n > max))
    throw new UsageError(`${from} must be an integer ${max !== undefined ? `from ${min} to ${max}` : `≥ ${min}`}, got '${raw}'`);
  return n;
}

/** Seconds as a decimal number from 0 to `max` (0.5 and 2 alike). */
function parseSeconds(raw: string, from: string, max: number): number {
  const text = raw.trim();
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || n > max) throw new UsageError(`${from} must be a number of seconds from 0 to ${max}, got '${raw}'`);
  return n;
}

/**
 * How long a deployment may take to show a write, unless --settle says otherwise. The documents promise no read
 * after a write at once, and real deployments lag by a second or two (a cluster's replicas, a search index).
 */
export const DEPLOYMENT_SETTLE_S = 3;
/** Checks in flight against a deployment unless --concurrency says otherwise. */
export const DEPLOYMENT_CONCURRENCY = 16;
/** The most --concurrency takes: each check in flight may hold a request open, and each request a socket. */
export const MAX_CONCURRENCY = 64;

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off', ''];

function boolean(o: Common & { default?: boolean }): OptionDef<boolean> {
  return {
    kind: 'setting',
    type: 'boolean',
    ...o,
    schema: { type: 'boolean' },
    parse(raw, from) {
      const v = raw.trim().toLowerCase();
      if (TRUE.includes(v)) return true;
      if (FALSE.includes(v)) return false;
      throw new UsageError(`${from} must be 1 or 0 (true or false), got '${raw}'`);
    },
    default: () => o.default ?? false,
  };
}

function string(
  o: Common & { default: string | ((c: DefaultContext) => string); check?: (v: string, from: string) => void },
): OptionDef<string>;
function string(o: Common & { default?: undefined; check?: (v: string, from: string) => void }): OptionDef<string | undefined>;
function string(
  o: Common & { default?: string | ((c: DefaultContext) => string); check?: (v: string, from: string) => void },
): OptionDef<string | undefined> {
  return {
    kind: 'setting',
    type: 'string',
    ...o,
    schema: { type: 'string' },
    parse(raw, from) {
      o.check?.(raw, from);
      return raw;
    },
    default: o.default === undefined ? () => undefined : fixed(o.default),
  };
}

interface ListOptions extends Common {
  /** The only values allowed (checked with the name of the source and the closest value). */
  values?: readonly string[];
  /** What the values are called in messages: "API", "report format". */
  noun?: string;
}
function list(o: ListOptions & { default: string[] | ((c: DefaultContext) => string[]) }): OptionDef<string[]>;
function list(o: ListOptions & { default?: undefined }): OptionDef<string[] | undefined>;
function list(o: ListOptions & { default?: string[] | ((c: DefaultContext) => string[]) }): OptionDef<string[] | undefined> {
  return {
    kind: 'setting',
    type: 'list',
    arg: 'LIST',
    ...o,
    schema: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    parse(raw, from) {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const allowed = o.values;
      if (allowed) {
        for (const item of items) {
          if (allowed.includes(item)) continue;
          const near = closest(item, allowed);
          throw new UsageError(
            `unknown ${o.noun ?? 'value'} '${item}' in ${from} (${near.length ? `did you mean ${near[0]}? ` : ''}known: ${allowed.join(', ')})`,
          );
        }
        if (!items.length) throw new UsageError(`${from} is empty (known: ${allowed.join(', ')})`);
      }
      return items;
    },
    default: o.default === undefined ? () => undefined : fixed(o.default),
  };
}

function custom<T>(
  o: Common & {
    type?: OptionType;
    schema?: Record<string, unknown>;
    parse: (raw: string, from: string) => T;
    default: T | ((c: DefaultContext) => T);
  },
): OptionDef<T> {
  return {
    kind: 'setting',
    type: o.type ?? 'string',
    schema: o.schema ?? { type: 'string' },
    ...o,
    default: fixed(o.default),
  } as OptionDef<T>;
}

const flagOnly = (o: Omit<FlagDef, 'kind'>): FlagDef => ({ kind: 'flag', ...o });

/** Builders for option tables (run options here, an API's variables in its own module). */
export const opt = { integer, boolean, string, list, custom, flag: flagOnly };

/** A URL option: checked when given; empty is refused (an unset CI secret must not mean "use the embedded server"). */
export const url = (o: Common) =>
  string({
    arg: 'URL',
    refuseEmpty: 'give the base URL of the deployment, or leave it out to run against the embedded implementation',
    ...o,
    check(v, from) {
      try {
        const u = new URL(v);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
      } catch {
        throw new UsageError(`${from} is not a valid http(s) URL: ${v}`);
      }
    },
  });

// ---------------------------------------------------------------------------------------------------------------
// The run options

const FORMATS = ['json', 'md', 'html', 'junit'] as const;

function shardOf(raw: string, from: string): { index: number; count: number } {
  const m = raw.trim().match(/^(\d+)\/(\d+)$/);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw new UsageError(`${from} must look like I/N with 1 ≤ I ≤ N (e.g. 2/3), got '${raw}'`);
  return { index, count };
}

export const RUN_OPTIONS = {
  help: opt.flag({ flag: 'help', short: 'h', type: 'boolean', help: 'show this help' }),
  apis: list({
    flag: 'api',
    env: 'CONFORMANCE_APIS',
    key: 'apis',
    help: 'comma list of APIs to run',
    defaultText: 'all',
    default: (c) => [...c.apis],
  }),
  target: opt.flag({
    flag: 'target',
    type: 'string',
    arg: 'URL',
    help: 'base URL of the deployment of the one API chosen with --api (its <API>_BASE_URL)',
  }),
  config: opt.flag({
    flag: 'config',
    type: 'string',
    arg: 'FILE',
    help: 'YAML file with these settings (keys below; secrets may stay in the environment)',
  }),
  only: list({
    flag: 'only',
    env: 'CONFORMANCE_ONLY',
    key: 'only',
    arg: 'GLOB,...',
    help: 'run only checks whose id or requirement ids match (* matches anything)',
  }),
  seed: integer({
    flag: 'seed',
    env: 'CONFORMANCE_SEED',
    key: 'seed',
    max: 0x7fffffff,
    help: 'seed of the property-based checks',
    defaultText: 'random, printed',
    default: () => randomBytes(4).readUInt32BE() >>> 1,
  }),
  replayPath: string({
    flag: 'replay-path',
    env: 'CONFORMANCE_PATH',
    key: 'replayPath',
    arg: 'PATH',
    help: 'counterexample path printed with a failure: replays exactly that case (with its --seed)',
  }),
  runs: integer({
    flag: 'runs',
    env: 'CONFORMANCE_RUNS',
    key: 'runs',
    min: 1,
    help: 'generated cases per property check (fixed examples always run too; raise it for deeper exploration)',
    default: 8,
  }),
  allowDestructive: boolean({
    flag: 'allow-destructive',
    env: 'CONFORMANCE_ALLOW_DESTRUCTIVE',
    key: 'allowDestructive',
    help: 'allow checks that can change data the run did not create against a target you name, loopback included (the embedded implementation always runs them)',
  }),
  label: string({
    flag: 'label',
    env: 'CONFORMANCE_LABEL',
    key: 'label',
    arg: 'TEXT',
    help: "the deployment and its version, for the report's first page (e.g. 'stacks-service 2.4.1, staging')",
  }),
  summaryOnly: boolean({
    flag: 'summary-only',
    env: 'CONFORMANCE_SUMMARY_ONLY',
    key: 'summaryOnly',
    help: "compliance.html holds only the report's first page (verdict, deployment, documents, counts, failed MUSTs): a PDF of at most 2 pages",
  }),
  requireAll: boolean({
    flag: 'require-all',
    env: 'CONFORMANCE_REQUIRE_ALL',
    key: 'requireAll',
    help: 'fail the gate when a MUST requirement is untested or skipped for want of a credential, flag or longer wait (the summary names it)',
  }),
  dryRun: opt.flag({
    flag: 'dry-run',
    type: 'boolean',
    help: 'list every request the run would send, rehearsed against the embedded implementation; sends nothing to the target',
  }),
  timeoutMs: custom({
    flag: 'timeout',
    env: 'CONFORMANCE_TIMEOUT_S',
    key: 'timeoutS',
    arg: 'S',
    type: 'integer',
    schema: { type: 'integer', minimum: 1 },
    help: 'seconds to wait for one complete answer',
    defaultText: '10',
    parse: (raw, from) => parseInteger(raw, from, 1) * 1000,
    default: 10_000,
  }),
  retries: integer({
    flag: 'retries',
    env: 'CONFORMANCE_RETRIES',
    key: 'retries',
    help: 're-runs of a check that fails a MUST, to tell intermittent failures',
    default: 2,
  }),
  settleS: custom<number | undefined>({
    flag: 'settle',
    env: 'CONFORMANCE_SETTLE_S',
    key: 'settleS',
    arg: 'S',
    type: 'integer',
    schema: { type: 'number', minimum: 0, maximum: 120 },
    help: `seconds a deployment may take to show a write to its reads: a check that fails a MUST is run again with every read after a write waiting this long, and passes only then (default ${DEPLOYMENT_SETTLE_S} against a deployment, 0 embedded)`,
    parse: (raw, from) => parseSeconds(raw, from, 120),
    default: undefined,
  }),
  concurrency: integer({
    flag: 'concurrency',
    env: 'CONFORMANCE_CONCURRENCY',
    key: 'concurrency',
    min: 1,
    max: MAX_CONCURRENCY,
    help: `checks of one API in flight, and requests at most (default ${DEPLOYMENT_CONCURRENCY} against a deployment, halved while it shows strain; 1 embedded; 1 for fragile targets; at most ${MAX_CONCURRENCY})`,
    default: undefined,
  }),
  rateLimit: integer({
    flag: 'rate-limit',
    env: 'CONFORMANCE_RATE_LIMIT',
    key: 'rateLimit',
    min: 1,
    help: 'at most N requests per second',
    defaultText: 'unlimited',
  }),
  maxWrites: integer({
    flag: 'max-writes',
    env: 'CONFORMANCE_MAX_WRITES',
    key: 'maxWrites',
    min: 1,
    help: 'at most N non-GET requests',
    defaultText: 'unlimited',
  }),
  shard: custom<{ index: number; count: number } | undefined>({
    flag: 'shard',
    env: 'CONFORMANCE_SHARD',
    key: 'shard',
    arg: 'I/N',
    help: "run the I-th of N slices of the checks (merge with 'report --merge')",
    parse: shardOf,
    default: undefined,
  }),
  viaPrismProxy: boolean({
    flag: 'via-prism-proxy',
    env: 'CONFORMANCE_VIA_PRISM_PROXY',
    key: 'viaPrismProxy',
    help: "route every request through 'prism proxy' and report where it disagrees",
  }),
  reportDir: string({
    flag: 'report-dir',
    env: 'CONFORMANCE_REPORT_DIR',
    key: 'reportDir',
    arg: 'DIR',
    help: 'where reports go',
    default: 'reports',
  }),
  overwrite: boolean({
    flag: 'overwrite',
    env: 'CONFORMANCE_OVERWRITE',
    key: 'overwrite',
    help: 'replace the reports of another run in a --report-dir you name (the default reports/ is always replaced)',
  }),
  formats: list({
    flag: 'format',
    env: 'CONFORMANCE_FORMATS',
    key: 'formats',
    help: 'report files: json, md, html, junit',
    defaultText: 'all',
    noun: 'report format',
    values: FORMATS,
    default: () => [...FORMATS],
  }),
  har: boolean({
    flag: 'har',
    env: 'CONFORMANCE_HAR',
    key: 'har',
    help: 'also save the traffic as <report-dir>/traffic.har, credentials masked',
  }),
  runTag: string({
    env: 'CONFORMANCE_RUN_TAG',
    help: 'tag marking every object the run creates',
    defaultText: 'generated',
    default: () => `cf${Date.now().toString(36)}${randomBytes(2).toString('hex')}`,
  }),
} satisfies OptionTable;

/** The values of one API's variables, by option name. */
export type ApiOptionValues = Record<string, unknown>;

/** Everything a run can be told, from flags, a config file or the environment (in that order of precedence). */
export type Settings = OptionValues<typeof RUN_OPTIONS> & {
  /** Each selected API's own variables (target, credentials, waits), resolved from its declaration. */
  apiOptions?: Record<string, ApiOptionValues>;
  /** In-process override of how long checks wait for a provisioned resource (else the API's own variable). */
  readyTimeoutS?: number;
};

/** An API's declaration of the variables of its deployment; `baseUrl` is the one `--target` sets. */
export interface ApiOptions {
  id: string;
  options: OptionTable & { baseUrl: OptionDef<string | undefined> };
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution

export interface ConfigFile {
  file: string;
  doc: Record<string, unknown>;
}

export interface Sources {
  /** parseArgs values by flag name. */
  flags?: Record<string, string | boolean | undefined>;
  file?: ConfigFile;
  env: Environment;
}

const fileText = (v: unknown) => (Array.isArray(v) ? v.join(',') : String(v));

/** The raw text of one option and where it came from, by precedence: flag, config file, environment. */
function pick(def: OptionDef, sources: Sources, filePath: string[] | undefined): { raw: string; from: string } | undefined {
  const f = def.flag ? sources.flags?.[def.flag] : undefined;
  if (f !== undefined) return { raw: f === true ? '1' : String(f), from: `--${def.flag}` };
  if (filePath && sources.file) {
    let v: unknown = sources.file.doc;
    for (const k of filePath) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    const from = `config key '${filePath.join('.')}' (${sources.file.file})`;
    if (v !== undefined && v !== null) return { raw: fileText(v), from };
    if (v === null && def.refuseEmpty) return { raw: '', from };
  }
  const e = def.env ? sources.env[def.env] : undefined;
  if (e !== undefined && (e !== '' || def.refuseEmpty)) return { raw: e, from: def.env! };
  return undefined;
}

/** The text of an option, refused when it is empty and emptiness means a mistake (an unset secret). */
function parseGiven(def: OptionDef, got: { raw: string; from: string }): unknown {
  if (def.refuseEmpty && got.raw.trim() === '') throw new UsageError(`${got.from} is empty (an unset CI secret?): ${def.refuseEmpty}`);
  return def.parse(got.raw, got.from);
}

function resolveTable(
  table: OptionTable,
  sources: Sources,
  keyPath: string[],
  context: (values: Record<string, unknown>) => DefaultContext,
  overrides: Record<string, { raw: string; from: string }> = {},
) {
  const values: Record<string, unknown> = {};
  const origins: Origins = {};
  const given: Record<string, { raw: string; from: string }> = {};
  for (const [name, def] of Object.entries(table)) {
    if (def.kind !== 'setting') continue;
    const got = overrides[name] ?? pick(def, sources, def.key ? [...keyPath, def.key] : undefined);
    if (got) given[name] = got;
  }
  // Values first, then defaults, which may depend on the values (a deployment waits longer than the embedded server).
  for (const [name, got] of Object.entries(given)) {
    values[name] = parseGiven(table[name] as OptionDef, got);
    origins[name] = got.from;
  }
  const c = context(values);
  for (const [name, def] of Object.entries(table)) if (def.kind === 'setting' && !(name in given)) values[name] = def.default(c);
  return { values, origins };
}

/** How an option can be given, for messages about one that was not: `APP_KEY (or config key 'targets.app.key')`. */
export function howToSet(def: OptionDef, api?: string): string {
  const ways = [
    def.flag ? `--${def.flag}` : undefined,
    def.env,
    def.key ? `config key '${api ? `targets.${api}.` : ''}${def.key}'` : undefined,
  ].filter(Boolean) as string[];
  return ways.length > 1 ? `${ways[0]} (or ${ways.slice(1).join(', ')})` : (ways[0] ?? '?');
}

export interface Resolved {
  settings: Settings;
  /** Where each value came from: run options by name, an API's variables as `<api>.<name>`. */
  origins: Origins;
}

/**
 * Settings from the flags, the config file and the environment. `apis` are the APIs the product knows, with their
 * declared variables; ids alone (in-process runs) resolve only the run options.
 */
export function resolveSettings(sources: Sources, apis: readonly (string | ApiOptions)[]): Resolved {
  const known = apis.map((a) => (typeof a === 'string' ? a : a.id));
  const declared = apis.filter((a): a is ApiOptions => typeof a !== 'string');
  const { values, origins } = resolveTable(RUN_OPTIONS, sources, [], () => ({ remote: false, apis: known }));
  const settings = values as Settings;
  const from = origins.apis ?? 'CONFORMANCE_APIS';
  for (const a of settings.apis) {
    if (known.includes(a)) continue;
    const near = closest(a, known);
    throw new UsageError(`unknown API '${a}' in ${from} (${near.length ? `did you mean ${near[0]}? ` : ''}known: ${known.join(', ')})`);
  }
  if (!settings.apis.length) throw new UsageError(`${from} names no API (known: ${known.join(', ')})`);
  settings.apis = [...new Set(settings.apis)];
  const selected = declared.filter((a) => settings.apis.includes(a.id));
  const target = sources.flags?.target;
  if (typeof target === 'string' && settings.apis.length !== 1) {
    throw new UsageError(
      `--target needs exactly one API: add --api ${known.join(' or --api ')}${origins.apis ? ` (${origins.apis} chose ${settings.apis.join(', ')})` : ''}`,
    );
  }
  settings.apiOptions = {};
  for (const a of selected) {
    const overrides = typeof target === 'string' ? { baseUrl: { raw: target, from: '--target' } } : undefined;
    const r = resolveTable(a.options, sources, ['targets', a.id], (v) => ({ remote: v.baseUrl !== undefined, apis: known }), overrides);
    settings.apiOptions[a.id] = r.values;
    for (const [k, v] of Object.entries(r.origins)) origins[`${a.id}.${k}`] = v;
  }
  return { settings, origins };
}

/** Settings from environment variables alone (in-process runs, benchmarks). */
export function settingsFrom(env: Environment, known: readonly (string | ApiOptions)[]): Settings {
  return resolveSettings({ env }, known).settings;
}

/** One API's variables from the environment alone (targets built outside the command line). */
export function apiValuesFromEnv(api: ApiOptions, env: Environment) {
  const r = resolveTable(api.options, { env }, ['targets', api.id], (v) => ({ remote: v.baseUrl !== undefined, apis: [api.id] }));
  return { values: r.values, origins: Object.fromEntries(Object.entries(r.origins).map(([k, v]) => [`${api.id}.${k}`, v])) };
}

/** The values of an API's variables that its checks read (those declared `exported`), by option name. */
export function exportedValues(api: ApiOptions, values: ApiOptionValues): ApiOptionValues {
  return Object.fromEntries(
    Object.entries(api.options).flatMap(([name, def]) =>
      def.kind === 'setting' && def.exported && values[name] !== undefined ? [[name, values[name]]] : [],
    ),
  );
}

/** What the report's `run.config` records: every setting that is not a secret, the APIs' own variables included. */
export function recordedConfig(settings: Settings, apis: readonly ApiOptions[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(RUN_OPTIONS)) {
    if (def.kind === 'setting' && !def.secret && name !== 'runTag') out[name] = (settings as Record<string, unknown>)[name];
  }
  const targets: Record<string, Record<string, unknown>> = {};
  for (const a of apis) {
    const values = settings.apiOptions?.[a.id];
    if (!values) continue;
    targets[a.id] = Object.fromEntries(
      Object.entries(a.options)
        .filter(([name, def]) => def.kind === 'setting' && !def.secret && values[name] !== undefined)
        .map(([name]) => [name, values[name]]),
    );
  }
  if (Object.keys(targets).length) out.targets = targets;
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The config file

/** The config file's JSON Schema, from the tables: unknown keys are refused. */
export function configSchema(apis: readonly ApiOptions[]): Record<string, unknown> {
  const props = (table: OptionTable) =>
    Object.fromEntries(Object.values(table).flatMap((d) => (d.kind === 'setting' && d.key ? [[d.key, d.schema]] : [])));
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...props(RUN_OPTIONS),
      targets: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(
          apis.map((a) => [a.id, { type: 'object', additionalProperties: false, properties: props(a.options) }]),
        ),
      },
    },
  };
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'an integer',
  boolean: 'true or false',
  string: 'a string',
  object: 'a mapping of keys',
  array: 'a list',
  number: 'a number',
};

type SchemaNode = { properties?: Record<string, SchemaNode> };

function describeError(e: ErrorObject, schema: Record<string, unknown>, doc: unknown): string {
  const path = e.instancePath.split('/').slice(1).map(decodeURIComponent);
  const where = path.join('.');
  let node = schema as SchemaNode | undefined;
  for (const p of path) node = node?.properties?.[p];
  let value: unknown = doc;
  for (const p of path) value = (value as Record<string, unknown> | undefined)?.[p];
  const shown = JSON.stringify(value);
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys(node?.properties ?? {});
      const near = closest(key, known);
      const full = where ? `${where}.${key}` : key;
      return `unknown key '${full}'${near.length ? ` (did you mean '${where ? `${where}.` : ''}${near[0]}'?)` : ''}; known keys${where ? ` under '${where}'` : ''}: ${known.join(', ')}`;
    }
    case 'type':
      return where
        ? `'${where}' must be ${TYPE_WORDS[(e.params as { type: string }).type] ?? (e.params as { type: string }).type}, got ${shown}`
        : 'the file must be a mapping of settings (key: value)';
    case 'minimum':
    case 'maximum':
      return `'${where}' must be ${e.keyword === 'minimum' ? '≥' : '≤'} ${(e.params as { limit: number }).limit}, got ${shown}`;
    case 'anyOf':
      return `'${where}' must be a string or a list of strings, got ${shown}`;
    default:
      return `'${where}' ${e.message ?? 'is not valid'}`;
  }
}

/** Reads and validates a YAML config file; every problem is a one-line usage error naming the key. */
export function loadConfigFile(file: string, apis: readonly ApiOptions[]): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new UsageError(
      `cannot read config file ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message}`,
    );
  }
  let doc: unknown;
  try {
    doc = parse(text) ?? {};
  } catch (e) {
    throw new UsageError(`config file ${file} is not valid YAML: ${(e as Error).message.split('\n')[0].replace(/:$/, '')}`);
  }
  const schema = configSchema(apis);
  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
  if (!validate(doc)) {
    const errors = validate.errors ?? [];
    // Unknown keys first (the likeliest mistake), and the anyOf verdict rather than its branches.
    const first =
      errors.find((e) => e.keyword === 'additionalProperties') ?? errors.find((e) => !e.schemaPath.includes('/anyOf/')) ?? errors[0];
    throw new UsageError(`config file ${file}: ${first ? describeError(first, schema, doc) : 'not valid'}`);
  }
  return { file, doc: doc as Record<string, unknown> };
}

/**
 * Settings given as an object (the programmatic API, the vitest entry point): the config file's keys and values,
 * validated by the same schema, so an unknown or misspelt key is a one-line usage error naming the closest one.
 */
export function configFromObject(doc: unknown, source: string, apis: readonly ApiOptions[]): ConfigFile {
  const schema = configSchema(apis);
  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
  if (!validate(doc)) {
    const errors = validate.errors ?? [];
    const first =
      errors.find((e) => e.keyword === 'additionalProperties') ?? errors.find((e) => !e.schemaPath.includes('/anyOf/')) ?? errors[0];
    throw new UsageError(`${source}: ${first ? describeError(first, schema, doc) : 'not valid'}`);
  }
  return { file: source, doc: doc as Record<string, unknown> };
}

// ---------------------------------------------------------------------------------------------------------------
// Help

/** Help lines for a table's flags: `--flag ARG   help (default ...)  [ENV]`. */
export function flagHelp(table: OptionTable, notes: Record<string, string> = {}): string[] {
  const rows = Object.values(table).flatMap((d) => {
    if (!d.flag) return [];
    const takes = d.type !== 'boolean';
    const left = `${d.short ? `-${d.short}, ` : ''}--${d.flag}${takes ? ` ${d.arg ?? 'VALUE'}` : ''}`;
    const def = d.kind === 'setting' ? (d.defaultText ?? defaultShown(d)) : undefined;
    const where = d.kind === 'setting' ? [d.env && `${d.env}${d.type === 'boolean' ? '=1' : ''}`, d.key].filter(Boolean).join(' · ') : '';
    const env = where ? `  [${where}]` : '';
    return [[left, `${d.help}${notes[d.flag] ? `: ${notes[d.flag]}` : ''}${def ? ` (default ${def})` : ''}${env}`]];
  });
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  return rows.map(([l, r]) => `  ${l.padEnd(width)}${r}`);
}

/** Help lines for options without a flag: `ENV  config key  help`. */
export function variableHelp(table: OptionTable, keyPrefix = ''): string[] {
  const rows = Object.values(table).flatMap((d) =>
    d.kind === 'setting' && !d.flag && d.env
      ? [
          [
            d.env,
            d.key ? `${keyPrefix}${d.key}` : '-',
            `${d.help}${(d.defaultText ?? defaultShown(d)) ? ` (default ${d.defaultText ?? defaultShown(d)})` : ''}`,
          ],
        ]
      : [],
  );
  if (!rows.length) return [];
  const w0 = Math.max(...rows.map((r) => r[0].length)) + 2;
  const w1 = Math.max(...rows.map((r) => r[1].length)) + 2;
  return rows.map(([a, b, c]) => `  ${a.padEnd(w0)}${b.padEnd(w1)}${c}`);
}

function defaultShown(d: OptionDef): string | undefined {
  if (d.type === 'boolean') return undefined;
  try {
    const v = d.default({ remote: false, apis: [] });
    return v === undefined ? undefined : Array.isArray(v) ? v.join(',') : String(v);
  } catch {
    return undefined;
  }
}

/** parseArgs options from a table. */
export function parseArgsOptions(table: OptionTable): Record<string, { type: 'string' | 'boolean'; short?: string }> {
  const out: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const d of Object.values(table))
    if (d.flag) out[d.flag] = { type: d.type === 'boolean' ? 'boolean' : 'string', ...(d.short ? { short: d.short } : {}) };
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Closest names, for "did you mean" in messages

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/**
 * Up to `max` candidates closest to `word` (case-insensitive): by edit distance to the whole candidate or to its
 * beginning (a typo in a prefix), candidates that start with the word first; none when nothing is close.
 */
export function closest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.floor(w.length / 3));
  const scored: { c: string; d: number }[] = [];
  for (const c of new Set(candidates)) {
    const l = c.toLowerCase();
    const d =
      l.startsWith(w) && w.length >= 3
        ? 0.5
        : Math.min(editDistance(w, l), w.length >= 4 && l.length > w.length ? editDistance(w, l.slice(0, w.length)) + 1 : Infinity);
    if (d <= limit) scored.push({ c, d });
  }
  scored.sort((a, b) => a.d - b.d || a.c.localeCompare(b.c));
  // Only the near-best: a clear best match is not diluted by distant ones.
  return scored
    .filter((s) => s.d <= scored[0].d + 1)
    .slice(0, max)
    .map((s) => s.c);
}
