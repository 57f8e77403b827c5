/*
 * One way to prepare and run a session, whoever starts it (the command line, the vitest front end, the programmatic
 * API): the settings resolved once from flags, a config file, settings given in code and an environment; every
 * set-up mistake found before anything is sent; each API's target resolved here and nowhere else. A session is plain
 * data, and the run it is handed to reads no environment.
 */
import type { ApiDefinition } from './api';
import { probeCredentials, runConformance, type ConformanceResult } from './conformance';
import { withNetwork } from './network';
import { onlyMistake } from './only-check';
import { prismCommand } from './prism';
import type { ProgressEvent } from './runner';
import { loadConfigFile, resolveSettings, type ConfigFile, type Origins, type Settings } from './settings';
import { setupMistake } from './setup-check';
import { TOOL } from './tool';
import type { Environment, Interruption, Target } from './types';
import { UsageError } from './usage-error';

export interface SessionInput {
  /** Command-line flags by name, as parseArgs gives them (`target` is the base URL of the one API chosen). */
  flags?: Record<string, string | boolean | undefined>;
  /** The YAML config file (`--config FILE`; CONFORMANCE_CONFIG for runs started in code). */
  configFile?: string;
  /** Settings given in code (the programmatic API, `defineConformanceTests`): config-file keys that win over the file. */
  given?: ConfigFile;
  /** The variables every setting not given otherwise comes from. */
  env: Environment;
}

export interface Session {
  settings: Settings;
  origins: Origins;
  /** The APIs the settings select, in run order. */
  apis: ApiDefinition[];
  /** Deployments configured for an API (absent: its embedded reference implementation). */
  targets: Record<string, Target>;
}

/** Settings given in code over those of the config file: keys of `over` win, `targets` merged per API. */
function overlay(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base, ...over };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  for (const [k, v] of Object.entries(over)) if (isObject(v) && isObject(base[k])) out[k] = overlay(base[k], v);
  return out;
}

/**
 * The session `input` describes, over the APIs the product knows (`known`, in run order). Flags win over settings
 * given in code, those over the config file, the file over the environment. A mistake is a `UsageError` with the
 * one line to print.
 */
export function openSession(input: SessionInput, known: readonly ApiDefinition[]): Session {
  const { flags, configFile, given, env } = input;
  const fromFile = configFile ? loadConfigFile(configFile, known) : undefined;
  const file =
    given && fromFile ? { file: `${given.file} over ${fromFile.file}`, doc: overlay(fromFile.doc, given.doc) } : (given ?? fromFile);
  const resolved = resolveSettings({ flags, file, env }, known);
  const mistake = setupMistake(env, resolved, known);
  if (mistake) throw new UsageError(mistake);
  const { settings, origins } = resolved;
  if (settings.viaPrismProxy) prismCommand(origins.viaPrismProxy);
  const apis = known.filter((a) => settings.apis.includes(a.id));
  // Validates each deployment's configuration (missing keys, bad URLs) before anything starts.
  const targets: Record<string, Target> = {};
  for (const a of apis) {
    const t = a.targetFrom(settings.apiOptions?.[a.id] ?? {}, origins);
    if (t) targets[a.id] = withNetwork(t, env);
  }
  const only = onlyMistake(settings.only, apis, known, origins.only);
  if (only) throw new UsageError(only);
  return { settings, origins, apis, targets };
}

/** What a run reports its progress to and watches for an interrupt. */
interface RunHooks {
  progress?: (e: ProgressEvent) => void;
  signal?: Interruption;
}

export interface SessionRunOptions {
  /**
   * Called once every deployment accepted its credentials, just before the first check, so that nothing is set up
   * (or cleared) for a run that is refused: returns what the run reports to and watches.
   */
  start?: () => RunHooks;
  /** Write the report files (default true); a replay only wants the verdict. */
  write?: boolean;
}

/** Runs a session: each deployment's credentials are tried once, then every selected check, and the reports written. */
export async function runSession(session: Session, o: SessionRunOptions = {}): Promise<ConformanceResult> {
  const { settings, apis, targets } = session;
  // A refused key is a usage error before any check, not a hundred failures.
  const credentialHints = Object.fromEntries(
    await Promise.all(
      apis.map(
        async (a) => [a.id, targets[a.id] ? await probeCredentials(a, targets[a.id], settings.timeoutMs, settings.runTag) : {}] as const,
      ),
    ),
  );
  const { progress, signal } = o.start?.() ?? {};
  return runConformance({ settings, apis, targets, progress, signal, tool: TOOL, credentialHints, write: o.write });
}
