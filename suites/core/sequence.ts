import type { Exchange, Target } from './types';

/**
 * One request a check sent, kept so that a failure can be replayed request by request: who sent it (the role and
 * how a shell passes its credential, as a variable reference), and the request itself without any credential.
 */
export interface SentRequest {
  role?: string;
  /** curl's credential arguments for the role, e.g. `-H "Authorization: Bearer $STACKS_API_KEY"`. */
  auth?: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Set instead of `body` when the body was too large to keep. */
  bodyBytes?: number;
  /** The request carried a credential of no role (under another scheme): it is not kept. */
  otherCredential?: boolean;
}

/** Bodies larger than this are not kept (a size-limit probe sends megabytes); the script says so. */
const MAX_BODY = 256 * 1024;
/** Requests kept per failing check at most: enough for any check's case, bounded for the report. */
export const MAX_SEQUENCE = 2000;

/** Whether a header value carries one of the target's secrets, plainly or base64-encoded (a Basic credential). */
function carriesSecret(value: string, target: Target): boolean {
  const secrets = Object.values(target.principals).flatMap((p) => p.secrets);
  const decoded = /^basic\s+(.+)$/i.exec(value)?.[1];
  const plain = decoded ? Buffer.from(decoded, 'base64').toString('utf8') : '';
  return secrets.some((s) => s && (value.includes(s) || plain.includes(s)));
}

export function sentRequest(ex: Exchange, target: Target): SentRequest {
  const principal = ex.principal ? target.principals[ex.principal] : undefined;
  const headers: Record<string, string> = {};
  let otherCredential = false;
  for (const [k, v] of Object.entries(ex.request.headers)) {
    if (k.toLowerCase() !== 'authorization') headers[k] = v;
    else if (!principal && carriesSecret(v, target)) otherCredential = true;
    else if (!principal) headers[k] = v;
  }
  const body = ex.request.body;
  const bytes = body === undefined ? 0 : Buffer.byteLength(body);
  return {
    ...(principal ? { role: principal.role, auth: principal.curlAuth } : {}),
    method: ex.request.method,
    url: ex.request.url,
    headers,
    ...(body === undefined ? {} : bytes > MAX_BODY ? { bodyBytes: bytes } : { body }),
    ...(otherCredential ? { otherCredential } : {}),
  };
}
