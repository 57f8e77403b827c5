/*
 * What a failed connection most likely means, and the setting that fixes it: the usual first mistakes against a
 * deployment are the scheme and a certificate the machine does not trust. Each returns a short clause, or nothing.
 */

import type { OptionTable } from './settings';

/** The variable an API declares for accepting a self-signed certificate (its option `tlsInsecure`), if any. */
export function tlsInsecureVariable(options: OptionTable): string | undefined {
  const d = options.tlsInsecure;
  return d?.kind === 'setting' ? d.env : undefined;
}

/** Certificate errors of node's TLS layer that a self-signed or privately issued certificate raises. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

export interface HintContext {
  /** The variable that accepts a self-signed certificate for this API, when it has one (OPS_TLS_INSECURE). */
  tlsInsecureVariable?: string;
  /** Whether the target has answered anything yet: a scheme mismatch shows on the first request, not in the middle of a run. */
  answeredBefore: boolean;
}

export function transportHint(e: NodeJS.ErrnoException, url: URL, c: HintContext): string | undefined {
  const code = e.code ?? '';
  if (UNTRUSTED.has(code)) {
    return c.tlsInsecureVariable
      ? `the server's certificate is not trusted, self-signed perhaps: set ${c.tlsInsecureVariable}=1`
      : "the server's certificate is not trusted, self-signed perhaps: give its CA with NODE_EXTRA_CA_CERTS=FILE";
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `the server's certificate is not for ${url.hostname}: use the host name it names`;
  if (c.answeredBefore) return undefined;
  if (url.protocol === 'http:' && (code === 'ECONNRESET' || /socket hang up/.test(e.message)))
    return 'the server may speak HTTPS: use https://';
  if (url.protocol === 'https:' && /wrong version number|packet length too long|http request/i.test(e.message))
    return 'the server may speak plain HTTP: use http://';
  return undefined;
}

/** OpenSSL's reason without its codes and source paths: `write EPROTO 80EC…:error:0A00010B:SSL routines:…:wrong version number:…` is `wrong version number`. */
export function plainError(message: string): string {
  return /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message;
}
