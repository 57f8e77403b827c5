import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { UsageError } from './api';

/** Everything a run can be told, from flags, a config file or the environment (in that order of precedence). */
export interface Settings {
  apis: string[];
  seed: number;
  runs: number;
  retries: number;
  allowDestructive: boolean;
  only?: string[];
  timeoutMs: number;
  readyTimeoutS: number;
  reportDir: string;
  formats: string[];
  rateLimit?: number;
  maxWrites?: number;
  har: boolean;
  runTag: string;
  concurrency: number;
  viaPrismProxy: boolean;
  shard?: { index: number; count: number };
}

/** Config-file target settings and the environment variables they stand for. */
const TARGET_KEYS: Record<string, Record<string, string>> = {
  stacks: { baseUrl: 'STACKS_BASE_URL', apiKey: 'STACKS_API_KEY', apiKey2: 'STACKS_API_KEY_2', apiKeyForbidden: 'STACKS_API_KEY_FORBIDDEN', readyTimeoutS: 'STACKS_READY_TIMEOUT_S' },
  ops: { baseUrl: 'OPS_BASE_URL', username: 'OPS_USERNAME', password: 'OPS_PASSWORD', readonlyUsername: 'OPS_READONLY_USERNAME', readonlyPassword: 'OPS_READONLY_PASSWORD', tlsInsecure: 'OPS_TLS_INSECURE' },
};

/** Reads a YAML config file into an environment overlay; secrets may stay in the real environment. */
export function configFileEnv(file: string): Record<string, string> {
  let doc: any;
  try {
    doc = parse(readFileSync(file, 'utf8')) ?? {};
  } catch (e) {
    throw new UsageError(`cannot read config file ${file}: ${(e as Error).message}`);
  }
  const env: Record<string, string> = {};
  const put = (k: string, v: unknown) => {
    if (v !== undefined && v !== null) env[k] = Array.isArray(v) ? v.join(',') : String(v);
  };
  put('CONFORMANCE_APIS', doc.apis);
  put('CONFORMANCE_SEED', doc.seed);
  put('CONFORMANCE_RUNS', doc.runs);
  put('CONFORMANCE_RETRIES', doc.retries);
  put('CONFORMANCE_ALLOW_DESTRUCTIVE', doc.allowDestructive === true ? '1' : doc.allowDestructive === false ? '0' : undefined);
  put('CONFORMANCE_ONLY', doc.only);
  put('CONFORMANCE_TIMEOUT_S', doc.timeoutS);
  put('CONFORMANCE_REPORT_DIR', doc.reportDir);
  put('CONFORMANCE_FORMATS', doc.formats);
  put('CONFORMANCE_RATE_LIMIT', doc.rateLimit);
  put('CONFORMANCE_MAX_WRITES', doc.maxWrites);
  put('CONFORMANCE_CONCURRENCY', doc.concurrency);
  for (const [api, keys] of Object.entries(TARGET_KEYS)) {
    for (const [key, envVar] of Object.entries(keys)) put(envVar, doc.targets?.[api]?.[key]);
  }
  return env;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${name} must be an integer ≥ ${min}, got '${raw}'`);
  return n;
}

function shardOf(raw: string | undefined): Settings['shard'] {
  if (!raw) return undefined;
  const m = raw.match(/^(\d+)\/(\d+)$/);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard must look like i/n with 1 ≤ i ≤ n, got '${raw}'`);
  return { index, count };
}

const flag = (v: string | undefined) => v === '1' || v === 'true' || v === 'yes';

export function settingsFrom(env: NodeJS.ProcessEnv, known: string[]): Settings {
  const apis = (env.CONFORMANCE_APIS ?? known.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
  for (const a of apis) if (!known.includes(a)) throw new UsageError(`unknown API '${a}' in CONFORMANCE_APIS (known: ${known.join(', ')})`);
  const remote = apis.some((a) => env[`${a.toUpperCase()}_BASE_URL`]);
  const formats = (env.CONFORMANCE_FORMATS ?? 'json,md,html,junit').split(',').map((s) => s.trim());
  for (const f of formats) if (!['json', 'md', 'html', 'junit'].includes(f)) throw new UsageError(`unknown report format '${f}' (json, md, html, junit)`);
  return {
    apis,
    seed: int(env, 'CONFORMANCE_SEED', randomBytes(4).readUInt32BE() >>> 1),
    runs: int(env, 'CONFORMANCE_RUNS', 25, 1),
    retries: int(env, 'CONFORMANCE_RETRIES', 2),
    allowDestructive: flag(env.CONFORMANCE_ALLOW_DESTRUCTIVE),
    only: env.CONFORMANCE_ONLY ? env.CONFORMANCE_ONLY.split(',').map((s) => s.trim()) : undefined,
    timeoutMs: int(env, 'CONFORMANCE_TIMEOUT_S', 10, 1) * 1000,
    readyTimeoutS: int(env, 'STACKS_READY_TIMEOUT_S', remote ? 60 : 10),
    reportDir: env.CONFORMANCE_REPORT_DIR ?? 'reports',
    formats,
    rateLimit: env.CONFORMANCE_RATE_LIMIT ? int(env, 'CONFORMANCE_RATE_LIMIT', 0, 1) : undefined,
    maxWrites: env.CONFORMANCE_MAX_WRITES ? int(env, 'CONFORMANCE_MAX_WRITES', 0, 1) : undefined,
    har: flag(env.CONFORMANCE_HAR),
    concurrency: int(env, 'CONFORMANCE_CONCURRENCY', 1, 1),
    viaPrismProxy: flag(env.CONFORMANCE_VIA_PRISM_PROXY),
    shard: shardOf(env.CONFORMANCE_SHARD),
    runTag: env.CONFORMANCE_RUN_TAG ?? `cf${Date.now().toString(36)}${randomBytes(2).toString('hex')}`,
  };
}
