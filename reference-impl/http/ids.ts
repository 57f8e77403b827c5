import { randomBytes, randomUUID } from 'node:crypto';

/** A fresh opaque identifier (UUID v4). */
export function newId(): string {
  return randomUUID();
}

/** The first group of a UUID: short enough for display names, still unlikely to collide within one user. */
export function shortId(id: string): string {
  return id.split('-')[0] ?? id;
}

/** A random URL-safe secret, e.g. a stack password. */
export function randomSecret(bytes = 18): string {
  return randomBytes(bytes).toString('base64url');
}
