// The ops reference implementation holding a large deployment's worth of objects, as a process of its own:
//   tsx bench/preloaded-ops.ts ENTITIES SERVICES
// prints `listening on <url>` once every object is stored. The scale benchmark points a conformance run at it.
import { listen } from '../reference-impl/http/server';
import { localhostTls } from '../reference-impl/http/tls';
import { loadOpsConfig } from '../reference-impl/ops/config';
import { createOpsHandler, opsErrorBody } from '../reference-impl/ops/handler';

const [entities, services] = process.argv.slice(2).map(Number);
const config = loadOpsConfig();
const admin = config.users.find((u) => !u.readOnly)!;
const authorization = `Basic ${Buffer.from(`${admin.name}:${admin.password}`).toString('base64')}`;
const handler = createOpsHandler(config);
const base = '/servicesNS/nobody/SA-ITOA/itoa_interface';
const create = (type: string, body: Record<string, unknown>) =>
  handler({
    method: 'POST',
    path: `${base}/${type}`,
    query: new URLSearchParams(),
    headers: { authorization },
    rawBody: JSON.stringify(body),
    body,
  });
for (let i = 0; i < services; i++)
  await create('service', { title: `svc ${String(i).padStart(6, '0')}`, description: 'preloaded', enabled: 0 });
for (let i = 0; i < entities; i++) {
  const name = `host-${String(i).padStart(6, '0')}`;
  await create('entity', { title: name, description: 'preloaded', identifier: { fields: ['host'], values: [name] }, host: [name] });
}
const server = await listen(handler, { errorBody: opsErrorBody, tls: localhostTls() });
process.stdout.write(`listening on ${server.url}\n`);
