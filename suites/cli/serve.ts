import { parseArgs } from 'node:util';
import { serveReference } from '../../reference-impl/serve';
import { UsageError } from '../core/api';
import { TOOL } from './tool';

export const SERVE_HELP = `usage: ${TOOL.name} serve --api stacks|ops [--port N] [--host H]

Starts the reference implementation of one API and prints its URL and demo credentials. Ctrl-C stops it.`;

export const apiArg = (api: string | undefined): 'stacks' | 'ops' => {
  if (api !== 'stacks' && api !== 'ops') throw new UsageError(`--api must be stacks or ops${api ? `, got '${api}'` : ''}`);
  return api;
};

export const portArg = (port: string | undefined): number => {
  const n = Number(port ?? 0);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port must be 0-65535, got '${port}'`);
  return n;
};

export async function serve(argv: string[]): Promise<number | undefined> {
  const { values } = parseArgs({ args: argv, strict: true, options: { help: { type: 'boolean', short: 'h' }, api: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } } });
  if (values.help) {
    console.log(SERVE_HELP);
    return 0;
  }
  await serveReference(apiArg(values.api), portArg(values.port), values.host ?? '127.0.0.1');
  // Keeps running until a signal stops the server.
  return undefined;
}
