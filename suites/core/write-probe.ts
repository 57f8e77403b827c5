import type { ApiDefinition } from './api';
import { named } from './credential-probe';
import type { Transport } from './transport';
import type { Target } from './types';

const json = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Shows, before any check, that a role meant to write can: the API's harmless write (a create of an object of the
 * run's own, tagged with the run tag, then the delete of the key it answered). A user who can read but not write,
 * given as the user with write access, would otherwise start a run that fails every write against a correct server.
 * Returns the line that ends the run, or nothing. Any other answer than a refusal is left to the checks to judge.
 */
export async function probeWrite(
  def: ApiDefinition,
  target: Target,
  role: string,
  transport: Transport,
  runTag: string,
): Promise<string | undefined> {
  const probe = def.credentialProbe;
  const write = probe?.write;
  const authorization = target.principals[role]?.authorization;
  if (!probe || !write?.roles.includes(role) || !authorization) return undefined;
  const { path, body } = write.create(target, runTag);
  const headers = { authorization, accept: 'application/json', 'content-type': 'application/json' };
  const made = await transport.send({ method: 'POST', url: `${target.baseUrl}${path}`, headers, body: JSON.stringify(body) });
  const key = made.status >= 200 && made.status < 300 ? write.keyOf(json(made.text)) : undefined;
  // Only the key this create answered is deleted: the probe touches nothing the run did not make.
  if (key) await transport.send({ method: 'DELETE', url: `${target.baseUrl}${write.deletePath(target, key)}`, headers });
  if (!probe.refusedWith(role).includes(made.status)) return undefined;
  const who = def.roleHints[role] ?? role;
  return `${who} cannot write: POST ${path} (an object of the run's own) answered ${named(made.status)}; the run needs a user with write access there (${write.readOnlyHint})`;
}
