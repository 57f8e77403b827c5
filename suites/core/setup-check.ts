import { closest, editDistance, howToSet, RUN_OPTIONS, type ApiOptions, type OptionTable, type Resolved } from './settings';

/*
 * Mistakes in how a deployment is configured that settings alone cannot see, each found before anything is sent:
 * variables of an API set without its base URL (the run would quietly use the embedded implementation and pass),
 * and variables whose name is one letter away from a known one (the value a user meant to give is not read).
 * Each returns the one line to print, or nothing.
 */

/** Read outside the option table: the vitest front end's name for the config file. */
export const CONFIG_FILE_VARIABLE = 'CONFORMANCE_CONFIG';

const variablesOf = (table: OptionTable) => Object.values(table).flatMap((d) => (d.kind === 'setting' && d.env ? [d.env] : []));

/** Every variable the product reads, with the prefixes that mark a name as meant for it. */
function vocabulary(apis: readonly ApiOptions[]) {
  const known = new Set([...variablesOf(RUN_OPTIONS), ...apis.flatMap((a) => variablesOf(a.options)), CONFIG_FILE_VARIABLE]);
  const prefixes = ['CONFORMANCE_', ...apis.map((a) => `${a.id.toUpperCase()}_`)];
  return { known, prefixes };
}

/**
 * The known variable an unknown name was probably meant to be. A name with one of the product's prefixes is matched
 * loosely (a typo, a missing part: OPS_USER for OPS_USERNAME); any other name only when it is two edits or fewer from
 * a known one and long enough not to be a coincidence (STACK_BASE_URL for STACKS_BASE_URL).
 */
function meantFor(name: string, known: Set<string>, prefixes: string[]): string | undefined {
  if (prefixes.some((p) => name.toUpperCase().startsWith(p))) return closest(name, known, 2).join(' or ') || undefined;
  if (name.length < 8) return undefined;
  return [...known].find((k) => editDistance(name.toLowerCase(), k.toLowerCase()) <= 2);
}

/** A variable in the environment that is not one the product reads but is close to one. */
function misspeltVariable(env: NodeJS.ProcessEnv, apis: readonly ApiOptions[]): string | undefined {
  const { known, prefixes } = vocabulary(apis);
  for (const name of Object.keys(env).sort()) {
    if (known.has(name)) continue;
    const near = meantFor(name, known, prefixes);
    if (near) return `unknown variable ${name} in the environment (did you mean ${near}?)`;
  }
  return undefined;
}

/**
 * Credentials (or other variables that only a deployment uses) of a selected API given without its base URL: the
 * run would check the embedded implementation instead of the deployment they were meant for. A variable in the
 * environment close to the base URL's name is named as the likely misspelling.
 */
function variablesWithoutBaseUrl(env: NodeJS.ProcessEnv, resolved: Resolved, apis: readonly ApiOptions[]): string | undefined {
  const { settings, origins } = resolved;
  for (const a of apis) {
    const values = settings.apiOptions?.[a.id];
    if (!values || values.baseUrl !== undefined) continue;
    const given = Object.entries(a.options).find(
      ([name, d]) => d.kind === 'setting' && (d.secret || d.deployment) && origins[`${a.id}.${name}`],
    );
    if (!given) continue;
    const base = a.options.baseUrl;
    const typo = Object.keys(env).find((n) => n !== base.env && base.env && editDistance(n.toLowerCase(), base.env.toLowerCase()) <= 2);
    return `${origins[`${a.id}.${given[0]}`]} is set but ${howToSet(base, a.id)} is not${typo ? ` (${typo} is set: misspelt?)` : ''}: without a base URL the run would check the embedded implementation, not the deployment`;
  }
  return undefined;
}

/** The first set-up mistake, most specific first. */
export const setupMistake = (env: NodeJS.ProcessEnv, resolved: Resolved, apis: readonly ApiOptions[]) =>
  variablesWithoutBaseUrl(env, resolved, apis) ?? misspeltVariable(env, apis);
