import type { ApiHandler, ApiRequest } from '../../../../reference-impl/http/types';
import type { OpsRequirementId } from '../../../ops/requirements.gen';
import type { OpsFault } from '../fault';

/** The object types a key is looked up in, by interface, when the addressed type has no object with it. */
const STORES: [iface: string, type: string][] = [
  ['itoa_interface', 'service'],
  ['itoa_interface', 'entity'],
  ['itoa_interface', 'deep_dive'],
  ['maintenance_services_interface', 'maintenance_calendar'],
  ['backup_restore_interface', 'backup_restore'],
];
const ACTIONS = new Set(['bulk_update', 'count', 'retire', 'restore', 'retire_retirable', 'count_retirable', 'get_alias_list']);

/** `/servicesNS/<user>/<app>/` and the `<object_type>/<_key>` of a by-key request to `iface`. */
function byKey(r: ApiRequest, iface: string) {
  const m = r.path.match(new RegExp(`^(/servicesNS/[^/]+/[^/]+/)${iface}(?:/vLatest)?/([^/]+)/([^/]+)$`));
  return m && !ACTIONS.has(m[3]!) ? { base: m[1]!, type: m[2]!, key: m[3]! } : undefined;
}

/**
 * A store keyed by `_key` alone: a request by key to `iface` with `method` that finds no object of the addressed
 * type reaches the object of another type (or interface) that has the key.
 */
const keyedAlone =
  (iface: string, method: string) =>
  (inner: ApiHandler): ApiHandler =>
  async (req) => {
    const at = req.method === method ? byKey(req, iface) : undefined;
    if (!at) return inner(req);
    const probe = (path: string) => inner({ ...req, method: 'GET', path, query: new URLSearchParams(), body: undefined, rawBody: '' });
    if ((await probe(req.path)).status < 300) return inner(req);
    for (const [i, type] of STORES) {
      if (i === iface && type === at.type) continue;
      const path = `${at.base}${i}/${type}/${at.key}`;
      if ((await probe(path)).status < 300) return inner({ ...req, path });
    }
    return inner(req);
  };

const INTERFACES: [iface: string, name: string, requirement: string][] = [
  ['itoa_interface', 'core', 'OPS-CORE'],
  ['maintenance_services_interface', 'maintenance', 'OPS-MW'],
  ['backup_restore_interface', 'backup', 'OPS-BR'],
];
const METHODS: [method: string, name: string, requirement: string][] = [
  ['GET', 'read', 'GET'],
  ['POST', 'update', 'UPDATE'],
  ['DELETE', 'delete', 'DELETE'],
];

export const typeInPathFaults: OpsFault[] = INTERFACES.flatMap(([iface, name, prefix]) =>
  METHODS.map(([method, verb, suffix]) => ({
    id: `${name}-${verb}-by-key-any-type`,
    description: `a ${verb} by key on the ${name} interface reaches an object of another type that has the key`,
    // Made of the interface's and the method's parts: the faults test fails on an id the catalogue does not hold.
    breaks: [`${prefix}-${suffix}` as OpsRequirementId],
    // The other type's object, read under this interface, is validated as this interface's object.
    collateral: method === 'GET' && prefix !== 'OPS-CORE' ? [`${prefix}-OBJECT-TYPE` as OpsRequirementId] : [],
    only: ['ops.core.type-in-path'],
    wrap: keyedAlone(iface, method),
  })),
);
