import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiDefinition } from '../../core/api';
import type { ComplianceReport } from '../../core/report/model';
import { opsApi } from '../../ops/index';
import { stacksApi } from '../../stacks/index';
import { runAgainst } from '../harness';

/**
 * Servers written from the documents alone (`second/` to `ninth/`, NOTES.md beside each), started as processes on a
 * free port and reached through the README's variables; `bug` switches on documented bugs by name (BUGS.md).
 */
const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '../../../corpus/servers');

/** The corpus folder of each server, by the ordinal the tests name it with. */
const STACKS_FOLDERS: Record<StacksServer, string> = { second: 'stacks-ulid-ids', third: 'stacks-uuid-slow-provisioning', fifth: 'stacks-rate-limited', eighth: 'stacks-other-readings' };
const OPS_FOLDERS: Record<OpsServer, string> = {
  second: 'ops-uuid-keys-http',
  third: 'ops-https-gzip',
  fourth: 'ops-dotted-keys-http',
  fifth: 'ops-https-xml-errors',
  sixth: 'ops-install-prefix-http',
  seventh: 'ops-string-regex-http',
  ninth: 'ops-other-readings-https',
};

/** The keys each stack server seeds, as a user of the suite would give them. */
const STACKS_SERVERS = {
  second: { STACKS_API_KEY: 'key-alice', STACKS_API_KEY_2: 'key-bob', STACKS_API_KEY_FORBIDDEN: 'key-mallory' },
  third: { STACKS_API_KEY: 'tok_7f3a9c1e', STACKS_API_KEY_2: 'tok_b24d8e60', STACKS_API_KEY_FORBIDDEN: 'tok_0c5e2f99' },
  fifth: { STACKS_API_KEY: 'sk_live_alpha01', STACKS_API_KEY_2: 'sk_live_beta02', STACKS_API_KEY_FORBIDDEN: 'sk_live_gamma03' },
  eighth: { STACKS_API_KEY: 'pk_9d1e77aa', STACKS_API_KEY_2: 'pk_3b08c2ff', STACKS_API_KEY_FORBIDDEN: 'pk_55f0e1d4' },
} satisfies Record<string, Record<string, string>>;

/**
 * The users each ops server seeds, and its scheme: HTTPS, as the document's transport asks, or plain HTTP, which
 * fails OPS-AUTH-HTTPS in every run of it.
 */
const OPS_SERVERS = {
  second: {
    scheme: 'http',
    env: {
      OPS_USERNAME: 'admin',
      OPS_PASSWORD: 's3cret-admin',
      OPS_READONLY_USERNAME: 'viewer',
      OPS_READONLY_PASSWORD: 's3cret-view',
      OPS_RESTRICTED_USERNAME: 'teamwriter',
      OPS_RESTRICTED_PASSWORD: 's3cret-team',
    },
  },
  third: {
    scheme: 'https',
    env: {
      OPS_TLS_INSECURE: '1',
      OPS_USERNAME: 'ops-admin',
      OPS_PASSWORD: 'Adm1n-pass',
      OPS_READONLY_USERNAME: 'auditor',
      OPS_READONLY_PASSWORD: 'Aud1t-pass',
      OPS_RESTRICTED_USERNAME: 'netops',
      OPS_RESTRICTED_PASSWORD: 'N3tops-pass',
    },
  },
  fourth: {
    scheme: 'http',
    env: {
      OPS_USERNAME: 'svc_conformance',
      OPS_PASSWORD: 'pw-Write-1',
      OPS_READONLY_USERNAME: 'ro_user',
      OPS_READONLY_PASSWORD: 'pw-Read-2',
      OPS_RESTRICTED_USERNAME: 'team_ops',
      OPS_RESTRICTED_PASSWORD: 'pw-Team-3',
    },
  },
  fifth: {
    scheme: 'https',
    env: {
      OPS_TLS_INSECURE: '1',
      OPS_USERNAME: 'admin_east',
      OPS_PASSWORD: 'Eas7-admin!',
      OPS_READONLY_USERNAME: 'reader_west',
      OPS_READONLY_PASSWORD: 'We5t-reader!',
      OPS_RESTRICTED_USERNAME: 'team_core',
      OPS_RESTRICTED_PASSWORD: 'C0re-team!',
    },
  },
  sixth: {
    scheme: 'http',
    env: {
      OPS_USERNAME: 'cfg_admin',
      OPS_PASSWORD: 'Cfg-Adm1n',
      OPS_READONLY_USERNAME: 'cfg_view',
      OPS_READONLY_PASSWORD: 'Cfg-V1ew',
      OPS_RESTRICTED_USERNAME: 'team_noc',
      OPS_RESTRICTED_PASSWORD: 'N0c-team',
    },
  },
  ninth: {
    scheme: 'https',
    env: {
      OPS_TLS_INSECURE: '1',
      OPS_USERNAME: 'root_ops',
      OPS_PASSWORD: 'R00t-ops!',
      OPS_READONLY_USERNAME: 'viewer_ops',
      OPS_READONLY_PASSWORD: 'V1ewer-ops!',
      OPS_RESTRICTED_USERNAME: 'team_db',
      OPS_RESTRICTED_PASSWORD: 'Db-team-9',
    },
  },
  seventh: {
    scheme: 'http',
    env: {
      OPS_USERNAME: 'ops_writer',
      OPS_PASSWORD: 'Wr1ter-pass',
      OPS_READONLY_USERNAME: 'ops_reader',
      OPS_READONLY_PASSWORD: 'Re4der-pass',
      OPS_RESTRICTED_USERNAME: 'team_edge',
      OPS_RESTRICTED_PASSWORD: 'Ed9e-pass',
    },
  },
} satisfies Record<string, { scheme: 'http' | 'https'; env: Record<string, string> }>;

export type StacksServer = keyof typeof STACKS_SERVERS;
export type OpsServer = keyof typeof OPS_SERVERS;

/** What every run of an ops server fails whatever its bugs: the transport, where it speaks plain HTTP. */
export const transportFailures = (server: OpsServer): string[] => (OPS_SERVERS[server].scheme === 'http' ? ['OPS-AUTH-HTTPS'] : []);

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

async function start(script: string, extraEnv: Record<string, string> = {}): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(CORPUS, script)], { env: { ...process.env, ...extraEnv, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
    child.stdout!.on('data', (b: Buffer) => {
      seen += b.toString();
      if (seen.includes('listening on')) resolve();
    });
  });
  return { port, child };
}

async function runOn(api: ApiDefinition, script: string, env: (port: number) => Record<string, string>, bug?: string): Promise<ComplianceReport> {
  const { port, child } = await start(script, bug ? { BUG: bug } : {});
  try {
    return await runAgainst(api, api.targetFromEnv(env(port))!, { readyTimeoutS: 10 });
  } finally {
    child.kill();
  }
}

export const runStacks = (server: StacksServer, bug?: string) =>
  runOn(stacksApi, `${STACKS_FOLDERS[server]}/server.mjs`, (port) => ({ STACKS_BASE_URL: `http://127.0.0.1:${port}`, ...STACKS_SERVERS[server] }), bug);

export const runOps = (server: OpsServer, bug?: string) =>
  runOn(opsApi, `${OPS_FOLDERS[server]}/server.mjs`, (port) => ({ OPS_BASE_URL: `${OPS_SERVERS[server].scheme}://127.0.0.1:${port}`, ...OPS_SERVERS[server].env }), bug);
