import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../core/types';
import { createTransport, TransportError } from '../../core/transport';
import { plainError, transportHint } from '../../core/transport-hint';
import { embeddedOpsTarget } from '../../ops/target';
import { embeddedStacksTarget } from '../../stacks/target';

/** The message of the transport error one GET ends with. */
async function failureOf(url: string, o: { tlsInsecureVariable?: string; tlsInsecure?: boolean } = {}): Promise<string> {
  const transport = createTransport({ timeoutMs: 5000, maxBodyBytes: 1024 * 1024, ...o });
  try {
    await transport.send({ method: 'GET', url, headers: {} });
  } catch (e) {
    expect(e).toBeInstanceOf(TransportError);
    return (e as Error).message;
  } finally {
    transport.close();
  }
  throw new Error(`GET ${url} answered`);
}

describe('a connection that fails names the likely cause and the setting that fixes it', () => {
  let ops: Target;
  let stacks: Target;
  beforeAll(async () => {
    [ops, stacks] = await Promise.all([embeddedOpsTarget(), embeddedStacksTarget()]);
  });
  afterAll(() => Promise.all([ops.close?.(), stacks.close?.()]));

  it('http:// against an HTTPS server: it may speak HTTPS', async () => {
    expect(await failureOf(ops.baseUrl.replace('https:', 'http:'))).toMatch(
      /socket hang up \(the server may speak HTTPS: use https:\/\/\)$/,
    );
  });

  it('https:// against a plain HTTP server: it may speak plain HTTP, without the OpenSSL codes', async () => {
    const message = await failureOf(stacks.baseUrl.replace('http:', 'https:'));
    expect(message).toMatch(/: wrong version number \(the server may speak plain HTTP: use http:\/\/\)$/);
    expect(message).not.toMatch(/SSL routines|openssl/);
  });

  it('a self-signed certificate: the API variable that accepts it, or the CA file where the API has none', async () => {
    expect(await failureOf(ops.baseUrl, { tlsInsecureVariable: 'OPS_TLS_INSECURE' })).toMatch(
      /self-signed perhaps: set OPS_TLS_INSECURE=1\)$/,
    );
    expect(await failureOf(ops.baseUrl)).toMatch(/self-signed perhaps: give its CA with NODE_EXTRA_CA_CERTS=FILE\)$/);
  });

  it('a reset after the target has answered is not blamed on the scheme', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(transportHint(reset, new URL('http://h/'), { answeredBefore: false })).toBe('the server may speak HTTPS: use https://');
    expect(transportHint(reset, new URL('http://h/'), { answeredBefore: true })).toBeUndefined();
    expect(
      transportHint(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), new URL('http://h/'), {
        answeredBefore: false,
      }),
    ).toBeUndefined();
  });

  it('keeps messages that are not OpenSSL reasons as they are', () => {
    expect(plainError('connect ECONNREFUSED 127.0.0.1:9')).toBe('connect ECONNREFUSED 127.0.0.1:9');
  });
});
