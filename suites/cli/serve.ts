import { serveReference } from '../../reference-impl/serve';
import { UsageError } from '../core/usage-error';
import { closest } from '../core/settings';
import { listenError, parseCommand } from './args';
import { TOOL } from '../core/tool';

export const SERVE_HELP = `usage: ${TOOL.name} serve --api stacks|ops [--port N] [--host H]

Starts the reference implementation of one API and prints its URL and demo credentials. Ctrl-C stops it.`;

export const apiArg = (api: string | undefined): 'stacks' | 'ops' => {
  if (api !== 'stacks' && api !== 'ops') {
    const near = api ? closest(api, ['stacks', 'ops']) : [];
    throw new UsageError(`--api must be stacks or ops${api ? `, got '${api}'${near.length ? ` (did you mean ${near[0]}?)` : ''}` : ''}`);
  }
  return api;
};

export const portArg = (port: string | undefined): number => {
  const n = Number(port ?? 0);
  if ((port !== undefined && !/^\d+$/.test(port.trim())) || !Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--port must be 0-65535, got '${port}'`);
  return n;
};

export async function serve(argv: string[]): Promise<number | undefined> {
  const { values: v } = parseCommand(
    'serve',
    { help: { type: 'boolean', short: 'h' }, api: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } },
    argv,
  );
  const values = v as { help?: boolean; api?: string; port?: string; host?: string };
  if (values.help) {
    console.log(SERVE_HELP);
    return 0;
  }
  const api = apiArg(values.api);
  const port = portArg(values.port);
  const host = values.host ?? '127.0.0.1';
  try {
    await serveReference(api, port, host);
  } catch (e) {
    throw listenError(e as NodeJS.ErrnoException, port, host);
  }
  // Keeps running until a signal stops the server.
  return undefined;
}
