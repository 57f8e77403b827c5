import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/api-conformance/', import.meta.url));

/**
 * Parses a YAML file, keeping the result as JSON keyed by the file's hash: the specs take a few hundred
 * milliseconds to parse as YAML and a millisecond as JSON, and every run starts by reading them.
 */
export function readYaml(file: string): any {
  const text = readFileSync(file, 'utf8');
  const cached = `${CACHE}${createHash('sha1').update(text).digest('hex')}.json`;
  try {
    return JSON.parse(readFileSync(cached, 'utf8'));
  } catch {
    const doc = parse(text);
    try {
      mkdirSync(CACHE, { recursive: true });
      writeFileSync(cached, JSON.stringify(doc));
    } catch {
      // A read-only install still works, only slower.
    }
    return doc;
  }
}
