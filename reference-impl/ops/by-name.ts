import type { Doc } from './config';
import type { OpsCtx } from './context';
import { readableObjects } from './objects';

/**
 * Objects whose `name` is how clients address them. A correlation search is a saved search of the platform: every
 * published client (the Terraform provider keys it by `name`, the Ansible collection reads, updates and deletes it
 * at `correlation_search/<name>`) addresses it by that name, so a search always has one, unique in its type, and
 * the name addresses it wherever a `_key` does.
 */
export const NAMED_TYPES: ReadonlySet<string> = new Set(['correlation_search']);

/** The name an object is stored with: the one given, else the one it had, else its `_key` (always unique). */
export function completeName(doc: Doc, previous: Doc | undefined, ctx: OpsCtx, type: string): string | undefined {
  const name = doc.name ?? previous?.name ?? doc._key;
  if (typeof name !== 'string' || name.trim() === '') return 'name must be a non-empty string';
  for (const other of ctx.state.store.values(type)) {
    if (other._key === doc._key) continue;
    // A name equal to another object's `_key` would make `<type>/<name>` reach that other object.
    if (other.name === name || other._key === name) {
      return `A ${type} named "${name.slice(0, 200)}" already exists (_key "${String(other._key).slice(0, 200)}"): names are unique`;
    }
  }
  doc.name = name;
  return undefined;
}

/**
 * The `_key` a path segment names: the segment itself when an object has that key, else the key of the one
 * readable object with that name. Python clients quote names with `quote_plus`, which writes a space as `+`; a `+`
 * that matches nothing as written is tried as a space.
 */
export function keyForSegment(ctx: OpsCtx, type: string, segment: string): string {
  if (!NAMED_TYPES.has(type) || ctx.state.store.has(type, segment)) return segment;
  const candidates = [segment];
  if (segment.includes('+')) candidates.push(segment.replaceAll('+', ' '));
  const readable = readableObjects(ctx, type);
  for (const name of candidates) {
    const found = readable.find((d) => d.name === name);
    if (found !== undefined) return found._key as string;
  }
  return segment;
}
