import type { IncomingHttpHeaders } from 'node:http';

// Handlers are also called in-process, where callers may not lower-case header names as node:http does.
function authorization(headers: IncomingHttpHeaders): string | undefined {
  const direct = headers.authorization;
  if (typeof direct === 'string') return direct;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'authorization' && typeof value === 'string') return value;
  }
  return undefined;
}

// RFC 9110 §11.1: the auth scheme is case-insensitive; the credentials are one token68.
const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;
const BASIC = /^Basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header, or undefined when absent or malformed. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const value = authorization(headers);
  return value === undefined ? undefined : BEARER.exec(value)?.[1];
}

/** The user and password of an `Authorization: Basic <base64>` header, or undefined when absent or malformed. */
export function basicCredentials(headers: IncomingHttpHeaders): { user: string; password: string } | undefined {
  const value = authorization(headers);
  const encoded = value === undefined ? undefined : BASIC.exec(value)?.[1];
  if (encoded === undefined || encoded.length % 4 === 1) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  // The user id cannot contain a colon (RFC 7617 §2); the password may.
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
