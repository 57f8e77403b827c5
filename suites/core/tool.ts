import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

/** Name and version as reports record them. */
export const TOOL = { name: pkg.name as string, version: pkg.version as string };
