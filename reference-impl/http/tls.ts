import { readFileSync } from 'node:fs';

/**
 * A self-signed certificate for localhost/127.0.0.1, kept with the fixtures: the ops API is documented as HTTPS-only,
 * so its reference implementation serves HTTPS too, and clients of the embedded server skip verification.
 */
export const localhostTls = () => ({
  key: readFileSync(new URL('../../fixtures/tls/localhost.key', import.meta.url)),
  cert: readFileSync(new URL('../../fixtures/tls/localhost.crt', import.meta.url)),
});
