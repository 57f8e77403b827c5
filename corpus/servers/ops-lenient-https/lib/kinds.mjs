// The collections of the core interface and how each is read, written and protected.
import { canReadTeam, canWriteTeam, GLOBAL_TEAM, permissionsFor } from './auth.mjs';
import { bug } from './bugs.mjs';
import { isPlainObject } from './http.mjs';
import { CORE_TYPES, EXTRA_TYPES } from './schema.mjs';
import { collection, newKey } from './store.mjs';

const teamField = (row) => (typeof row.sec_grp === 'string' && row.sec_grp !== '' ? row.sec_grp : GLOBAL_TEAM);

/** A new object without a team goes to the Global team; an update without one keeps the team it had. */
function defaultTeam(row, _user, old) {
  if (row.sec_grp === undefined || row.sec_grp === null || row.sec_grp === '') row.sec_grp = old?.sec_grp || GLOBAL_TEAM;
}

function withPermissions(out, user) {
  out.permissions = permissionsFor(user, teamField(out));
  return out;
}

/** Hidden links of retired entities, restored by entity/restore. */
export const retiredLinks = new Map();

export function isRetirable(row) {
  const services = Array.isArray(row.services) ? row.services : [];
  return !row.retired && services.length === 0 ? 1 : 0;
}

function serviceTitles(services) {
  const svc = collection('itoa', 'service');
  return services.map((s) => {
    if (!isPlainObject(s)) return s;
    const found = svc.get(s._key);
    return found && typeof found.title === 'string' ? { ...s, title: found.title } : s;
  });
}

function prepareKpis(row) {
  if (!Array.isArray(row.kpis)) return;
  row.kpis = row.kpis.map((k) => {
    if (!isPlainObject(k)) return k;
    const kpi = { ...k };
    if (kpi._key === undefined || kpi._key === null || kpi._key === '') kpi._key = newKey();
    kpi.service_id = row._key;
    return kpi;
  });
}

const extra = {
  team: {
    team: (row) => row._key,
    prepare: () => {},
    decorate: (out, user) => {
      out.permissions = permissionsFor(user, out._key);
      return out;
    },
    protect: (row) => (row._key === GLOBAL_TEAM ? 'the Global team cannot be deleted' : null),
  },
  entity: {
    prepare: (row, user, old) => {
      defaultTeam(row, user, old);
      delete row.retirable;
      row.retired = old ? old.retired || 0 : 0;
      if (row.services !== undefined && !Array.isArray(row.services)) row.services = [row.services];
      if (row.services === undefined) row.services = [];
      row.retirable = isRetirable(row);
    },
    decorate: (out, user) => {
      if (Array.isArray(out.services)) out.services = serviceTitles(out.services);
      out.retirable = isRetirable(out);
      return withPermissions(out, user);
    },
    afterDelete: (row) => retiredLinks.delete(row._key),
  },
  service: {
    prepare: (row, user, old) => {
      defaultTeam(row, user, old);
      prepareKpis(row);
    },
    decorate: withPermissions,
  },
  base_service_template: {
    prepare: (row, user, old) => {
      defaultTeam(row, user, old);
      if (Array.isArray(row.kpis)) row.kpis = row.kpis.map((k) => (isPlainObject(k) && !k._key ? { ...k, _key: newKey() } : k));
    },
    decorate: withPermissions,
  },
  custom_threshold_windows: {
    prepare: (row, user, old) => {
      defaultTeam(row, user, old);
      if (row.status === undefined || row.status === null) row.status = old?.status ?? 'Active';
      if (!Array.isArray(row.linked_services) && row.linked_services === undefined) row.linked_services = old?.linked_services ?? [];
      if (row.sec_grp_list === undefined) row.sec_grp_list = [row.sec_grp];
      if (old?.last_stopped_time !== undefined && row.last_stopped_time === undefined) row.last_stopped_time = old.last_stopped_time;
    },
    decorate: (out, user) => {
      if (typeof out.status === 'string' && !bug('ctw-status-as-stored')) out.status = out.status.toLowerCase();
      const team = teamField(out);
      const canWrite = canWriteTeam(user, team);
      out.can_view = canReadTeam(user, team);
      out.can_link = canWrite;
      out.can_edit = canWrite;
      out.can_transition = canWrite;
      return withPermissions(out, user);
    },
  },
};

const kinds = new Map();

for (const type of [...CORE_TYPES, ...EXTRA_TYPES]) {
  const base = {
    type,
    coll: collection('itoa', type),
    schema: type,
    team: teamField,
    prepare: defaultTeam,
    decorate: withPermissions,
  };
  kinds.set(type, { ...base, ...(extra[type] || {}) });
}

export function coreKind(type) {
  return kinds.get(type);
}

export const ALL_CORE_TYPES = [...CORE_TYPES, ...EXTRA_TYPES];
