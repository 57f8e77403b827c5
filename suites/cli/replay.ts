import { APIS } from '../apis';
import type { ApiDefinition } from '../core/api';
import { destructiveAllowed } from '../core/destructive';
import type { ComplianceReport } from '../core/report/model';
import { failingChecks, replayScript } from '../core/report/replay-script';
import { openSession, runSession, type Session } from '../core/session';
import { closest } from '../core/settings';
import { TOOL } from '../core/tool';
import { UsageError } from '../core/usage-error';
import { parseCommand } from './args';
import { loadReport } from './report';

export const REPLAY_HELP = `usage: ${TOOL.name} replay REPORT.json REQUIREMENT [--script] [--config FILE] [--allow-destructive] [--timeout S]

Re-runs exactly the case that failed REQUIREMENT in REPORT.json (its checks, the run's seed, property budget and
counterexample path) against the run's target, and says whether it still fails.
Credentials come from the environment or --config, as for run. Exit code: 0 it passes now, 1 it still fails,
2 usage error or no verdict (the requirement is untested or skipped now).
  --script              print every request the failing case sent, in order and by role, as a curl shell script
                        (nothing is sent)
  --allow-destructive   needed to replay a destructive check against a deployment
  --timeout S           seconds to wait for one answer (default 10)`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  script: { type: 'boolean' },
  config: { type: 'string' },
  'allow-destructive': { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

type Values = { help?: boolean; script?: boolean; config?: string; 'allow-destructive'?: boolean; timeout?: string };

/** The failed requirement a replay is about, or a usage error naming what the report holds. */
function failedRequirement(r: ComplianceReport, id: string, file: string) {
  const q = r.requirements.find((x) => x.id === id);
  if (!q) {
    const near = closest(
      id,
      r.requirements.map((x) => x.id),
    );
    throw new UsageError(`${file} holds no requirement ${id}${near.length ? ` (did you mean ${near[0]}?)` : ''}`);
  }
  if (q.status !== 'failed') throw new UsageError(`${id} did not fail in ${file} (it was ${q.status}): only a failure can be replayed`);
  return q;
}

/** The counterexample path of a failed property, which makes the replay generate exactly the failing case. */
const pathOf = (q: ComplianceReport['requirements'][number]) =>
  q.evidence.map((e) => (e.evidence?.details as { path?: unknown } | undefined)?.path).find((p): p is string => typeof p === 'string');

/**
 * The session of the replay: the failed checks of the report's API, against the report's target, with the run's seed
 * and budget; credentials and the rest from the environment and --config, as for run.
 */
function replaySession(r: ComplianceReport, q: ComplianceReport['requirements'][number], def: ApiDefinition, v: Values): Session {
  const api = r.apis.find((a) => a.api === q.api)!;
  const checks = failingChecks(q);
  // The failed checks are the selection, as --only would give it: an `only` of the environment or the file is not this replay's.
  const flags = {
    api: q.api,
    only: checks.join(','),
    ...(api.target.embedded ? {} : { target: api.target.baseUrl }),
    ...(v.timeout ? { timeout: v.timeout } : {}),
  };
  const session = openSession({ flags, configFile: v.config, env: process.env }, APIS);
  const settings = {
    ...session.settings,
    seed: r.run.seed,
    runs: r.run.runs,
    retries: 0,
    replayPath: pathOf(q),
    allowDestructive: Boolean(v['allow-destructive']),
    formats: [],
  };
  const target = session.targets[def.id];
  const destructive = def.checks.filter((c) => checks.includes(c.id) && c.destructive).map((c) => c.id);
  if (destructive.length && !destructiveAllowed(target, settings.allowDestructive)) {
    throw new UsageError(
      `${destructive.join(', ')} ${destructive.length > 1 ? 'are' : 'is'} destructive: add --allow-destructive to replay against ${target.baseUrl}`,
    );
  }
  return { ...session, settings };
}

export async function replay(argv: string[]): Promise<number> {
  const { values: raw, positionals } = parseCommand('replay', OPTIONS, argv, true);
  const v = raw as Values;
  if (v.help) {
    console.log(REPLAY_HELP);
    return 0;
  }
  if (positionals.length !== 2)
    throw new UsageError(`replay takes a report and a requirement id, got ${positionals.length} argument(s) (try replay --help)`);
  const [file, id] = positionals;
  const r = loadReport(file);
  const q = failedRequirement(r, id, file);
  if (v.script) {
    process.stdout.write(replayScript(r, q));
    return 0;
  }
  const def = APIS.find((a) => a.id === q.api);
  if (!def) throw new UsageError(`${file} is a report of the ${q.api} API, which this version does not know`);
  const session = replaySession(r, q, def, v);
  const target = session.targets[def.id];
  const result = await runSession(session, { write: false });
  const now = result.report.requirements.find((x) => x.id === id)!;
  const where = target ? target.baseUrl : 'a fresh embedded implementation';
  const checks = failingChecks(q).join(', ');
  if (now.status === 'failed') {
    process.stdout.write(`${id} still fails against ${where} (${checks}, seed ${r.run.seed}): ${now.evidence[0]?.message ?? ''}\n`);
    return 1;
  }
  if (now.status === 'passed') {
    process.stdout.write(`${id} passes now against ${where}: the case that failed in ${file} (${checks}, seed ${r.run.seed}) holds\n`);
    return 0;
  }
  process.stdout.write(`${id} is ${now.status} now against ${where}, so whether it is fixed is not known: ${now.reason ?? ''}\n`);
  return 2;
}
