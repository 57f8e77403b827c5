import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { UsageError } from '../core/usage-error';
import { closest } from '../core/settings';

export type FlagOptions = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/**
 * node:util parseArgs in strict mode, with its mistakes turned into one-line usage errors that name the option,
 * the closest known one and where to look: `unknown option '--fromat' (did you mean --format? try run --help)`.
 */
export function parseCommand(
  command: string,
  options: FlagOptions,
  argv: string[],
  allowPositionals = false,
): { values: FlagValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals });
    return { values: values as FlagValues, positionals };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (!String(err.code ?? '').startsWith('ERR_PARSE_ARGS')) throw e;
    const named = /'(-[^'\s]*)/.exec(err.message)?.[1] ?? '';
    const help = `try ${command} --help`;
    switch (err.code) {
      case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
        const bare = named.replace(/^-+/, '');
        const near = named.startsWith('--') || bare.length > 1 ? closest(bare, Object.keys(options)) : [];
        throw new UsageError(`unknown option '${named}' (${near.length ? `did you mean --${near[0]}? ` : ''}${help})`);
      }
      case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
        if (/does not take an argument/.test(err.message)) throw new UsageError(`option ${named} takes no value (${help})`);
        throw new UsageError(`option ${named} needs a value (${help})`);
      case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
        const arg = /'([^']*)'/.exec(err.message)?.[1] ?? '';
        throw new UsageError(`unexpected argument '${arg}' (${help})`);
      }
      default:
        throw new UsageError(`${err.message.split('\n')[0]} (${help})`);
    }
  }
}

/** Fails with one line when a TCP port cannot be listened on (taken, or privileged). */
export async function ensurePortFree(port: number, host = '127.0.0.1'): Promise<void> {
  if (!port) return;
  await new Promise<void>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (e: NodeJS.ErrnoException) => reject(listenError(e, port, host)));
    srv.listen(port, host, () => srv.close(() => resolve()));
  });
}

/** A listen failure as the one line a person needs. */
export function listenError(e: NodeJS.ErrnoException, port: number, host: string): Error {
  if (e.code === 'EADDRINUSE') return new UsageError(`port ${port} is already in use`);
  if (e.code === 'EACCES') return new UsageError(`port ${port} needs privileges this process does not have (use a port above 1023)`);
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return new UsageError(`cannot listen on ${host}: no such local address`);
  return e;
}
