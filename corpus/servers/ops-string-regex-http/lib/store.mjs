// In-memory collections and the access rules that decide who sees which object.
import { GLOBAL_TEAM, isObj } from './util.mjs';
import { canReadTeam, canWriteTeam } from './auth.mjs';
import { bug } from './bugs.mjs';

const collections = new Map(); // scope -> Map(key -> obj)
const seqs = new Map(); // scope\0key -> insertion number
const meta = new Map(); // scope\0key -> hidden data
let seq = 0;

export function coll(scope) {
  let c = collections.get(scope);
  if (!c) {
    c = new Map();
    collections.set(scope, c);
  }
  return c;
}
export function get(scope, key) {
  return coll(scope).get(key);
}
export function put(scope, obj) {
  const c = coll(scope);
  const id = `${scope}\0${obj._key}`;
  if (!seqs.has(id)) seqs.set(id, ++seq);
  c.set(obj._key, obj);
  return obj;
}
export function remove(scope, key) {
  coll(scope).delete(key);
  seqs.delete(`${scope}\0${key}`);
  meta.delete(`${scope}\0${key}`);
}
export function hidden(scope, key) {
  const id = `${scope}\0${key}`;
  let m = meta.get(id);
  if (!m) {
    m = {};
    meta.set(id, m);
  }
  return m;
}
// Default order: newest first (reverse insertion order).
export function all(scope) {
  const arr = [...coll(scope).values()];
  arr.sort((a, b) => (seqs.get(`${scope}\0${b._key}`) || 0) - (seqs.get(`${scope}\0${a._key}`) || 0));
  return arr;
}

// ---------- access ----------
export function teamsOf(scope, obj) {
  if (scope === 'core:team') return [obj._key];
  if (scope === 'maint:maintenance_calendar' || scope === 'maint:operative_maintenance_log') {
    const l = Array.isArray(obj.sec_grp_list) && obj.sec_grp_list.length ? obj.sec_grp_list : [obj.sec_grp || GLOBAL_TEAM];
    return l;
  }
  return [typeof obj.sec_grp === 'string' && obj.sec_grp ? obj.sec_grp : GLOBAL_TEAM];
}

export function canRead(user, scope, obj) {
  if (scope === 'backup:backup_restore' && obj._owner === user.name) return true;
  // Maintenance windows: every team in sec_grp_list must be readable.
  return teamsOf(scope, obj).every((t) => canReadTeam(user, t));
}
export function canWrite(user, scope, obj) {
  if (scope === 'core:team') return canWriteTeam(user, GLOBAL_TEAM);
  if (scope === 'backup:backup_restore' && obj._owner === user.name && user.write !== '*' && user.write.length) return true;
  return teamsOf(scope, obj).every((t) => canWriteTeam(user, t));
}
export function readable(user, scope) {
  const rows = all(scope);
  if (bug('list_ignores_teams')) return rows;
  return rows.filter((o) => canRead(user, scope, o));
}
export function readableStrict(user, scope) {
  return all(scope).filter((o) => canRead(user, scope, o));
}
export const teamExists = (key) => coll('core:team').has(key);
export { isObj };
