// maintenance_services_interface: maintenance windows (maintenance_calendar).
import { canReadTeam, canWriteAtAll, GLOBAL_TEAM } from './auth.mjs';
import { isPlainObject, notFound } from './http.mjs';
import { handleSimple } from './simple.mjs';
import { collection } from './store.mjs';

function groups(row) {
  if (Array.isArray(row.sec_grp_list) && row.sec_grp_list.length) return row.sec_grp_list.map(String);
  return [typeof row.sec_grp === 'string' && row.sec_grp ? row.sec_grp : GLOBAL_TEAM];
}

/** Teams of the services and entities a window names; a name that resolves to nothing adds none. */
function teamsOfObjects(objects) {
  const teams = new Set();
  for (const o of Array.isArray(objects) ? objects : []) {
    if (!isPlainObject(o)) continue;
    const type = o.object_type === 'entity' ? 'entity' : o.object_type === 'service' ? 'service' : null;
    const row = type ? collection('itoa', type).get(String(o._key)) : undefined;
    if (row) teams.add(row.sec_grp || GLOBAL_TEAM);
  }
  return teams.size ? [...teams] : [GLOBAL_TEAM];
}

const maintenanceKind = {
  type: 'maintenance_calendar',
  coll: collection('maintenance', 'maintenance_calendar'),
  schema: 'maintenance_calendar',
  readable: (user, row) => row._owner === user.name || groups(row).some((g) => canReadTeam(user, g)),
  writable: (user, row) => canWriteAtAll(user) && (row._owner === user.name || groups(row).every((g) => canReadTeam(user, g))),
  prepare: (row, user, old) => {
    if (!old) row._owner = user.name;
    if (row.sec_grp_list === undefined) row.sec_grp_list = teamsOfObjects(row.objects);
  },
  decorate: (out, user, row) => {
    out.can_edit = maintenanceKind.writable(user, row);
    return out;
  },
};

export function handleMaintenance(ctx) {
  const [type, ...rest] = ctx.segs;
  if (type === 'get_supported_object_types' && rest.length === 0 && ctx.method === 'GET')
    return { status: 200, body: ['maintenance_calendar'] };
  if (type !== 'maintenance_calendar') throw notFound(`object type ${type}`);
  return handleSimple(maintenanceKind, ctx, rest, 'count-ignores-access');
}
