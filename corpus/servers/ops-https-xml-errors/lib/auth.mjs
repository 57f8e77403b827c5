// Users, Basic authentication and team-based access checks.
import { GLOBAL_TEAM, forbidden } from './util.mjs';

export const USERS = {
  admin_east: { password: 'Eas7-admin!', readOnly: false, read: '*', write: '*', roles: ['admin', 'itoa_admin'] },
  reader_west: {
    password: 'We5t-reader!',
    readOnly: true,
    read: [GLOBAL_TEAM, 'team-west-0002'],
    write: [],
    roles: ['itoa_analyst'],
  },
  team_core: {
    password: 'C0re-team!',
    readOnly: false,
    read: ['team-core-0001'],
    write: ['team-core-0001'],
    roles: ['itoa_team_admin'],
  },
};

export const XML_401 =
  '<?xml version="1.0" encoding="UTF-8"?><response><messages><msg type="WARN">call not properly authenticated</msg></messages></response>';

export function authenticate(header) {
  if (typeof header !== 'string') return null;
  const m = /^\s*Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return null;
  let decoded;
  try {
    decoded = Buffer.from(m[1], 'base64').toString('utf8');
  } catch {
    return null;
  }
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  const name = decoded.slice(0, i);
  const pass = decoded.slice(i + 1);
  const u = Object.hasOwn(USERS, name) ? USERS[name] : null;
  if (!u || u.password !== pass) return null;
  return { name, ...u };
}

export const canReadTeam = (user, team) => user.read === '*' || user.read.includes(team);
export const canWriteTeam = (user, team) => !user.readOnly && (user.write === '*' || user.write.includes(team));

// Which teams an object belongs to.  An object is readable (writable) only when every
// one of its teams is readable (writable) by the caller.
export function groupsOf(type, obj) {
  if (!obj || typeof obj !== 'object') return [GLOBAL_TEAM];
  if (type === 'team') return [String(obj._key)];
  if (
    (type === 'maintenance_calendar' || type === 'custom_threshold_windows') &&
    Array.isArray(obj.sec_grp_list) &&
    obj.sec_grp_list.length
  ) {
    return obj.sec_grp_list.map(String);
  }
  if (typeof obj.sec_grp === 'string' && obj.sec_grp) return [obj.sec_grp];
  return [GLOBAL_TEAM];
}

export const canRead = (user, type, obj) => groupsOf(type, obj).every((g) => canReadTeam(user, g));
export const canWrite = (user, type, obj) => groupsOf(type, obj).every((g) => canWriteTeam(user, g));

export function assertRead(user, type, obj) {
  if (!canRead(user, type, obj)) throw forbidden('Forbidden: you do not have read access to this object');
}
export function assertWrite(user, type, obj) {
  if (!canWrite(user, type, obj)) throw forbidden('Forbidden: you do not have write access to this object');
}
// Platform-level (non-object) resources are owned by the Global team.
export function assertGlobalRead(user) {
  if (!canReadTeam(user, GLOBAL_TEAM)) throw forbidden('Forbidden: read access to the Global team is required');
}
export function assertGlobalWrite(user) {
  if (!canWriteTeam(user, GLOBAL_TEAM)) throw forbidden('Forbidden: write access to the Global team is required');
}

export function permissionsFor(user, type, obj) {
  const r = canRead(user, type, obj);
  const w = canWrite(user, type, obj);
  return { user: user.name, group: { read: r, write: w, delete: w }, read: r, write: w, delete: w };
}
