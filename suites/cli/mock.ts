import { apiById } from '../apis';
import { startPrism } from '../core/prism';
import { apiArg, portArg } from './serve';
import { ensurePortFree, parseCommand } from './args';
import { TOOL } from '../core/tool';

export const MOCK_HELP = `usage: ${TOOL.name} mock --api stacks|ops [--port N]

Serves a Prism mock of the API from its OpenAPI spec (answers are the spec's examples). Ctrl-C stops it.`;

export async function mock(argv: string[]): Promise<number | undefined> {
  const { values: v } = parseCommand(
    'mock',
    { help: { type: 'boolean', short: 'h' }, api: { type: 'string' }, port: { type: 'string' } },
    argv,
  );
  const values = v as { help?: boolean; api?: string; port?: string };
  if (values.help) {
    console.log(MOCK_HELP);
    return 0;
  }
  const api = apiById(apiArg(values.api))!;
  const port = portArg(values.port);
  // Prism would report a taken port only as "exited before it was ready" (or, worse, find the other server answering).
  await ensurePortFree(port);
  const prism = await startPrism('mock', api.specFile, { port: port || undefined });
  console.log(`Prism mock of the ${api.id} API (${api.specFile}) listening on ${prism.url}`);
  const stop = () => prism.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined;
}
