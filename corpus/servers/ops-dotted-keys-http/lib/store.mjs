// In-memory state, users, teams and access checks.
import { GLOBAL_TEAM, forbidden, notFound, bad, clone, isStr } from './util.mjs';

// ---------------------------------------------------------------- users
// access: 'all' = read+write on every team; otherwise a map team -> 'r' | 'rw'
export const USERS = {
  svc_conformance: { password: 'pw-Write-1', all: true, readOnly: false, roles: ['admin', 'ops_admin'] },
  ro_user: {
    password: 'pw-Read-2',
    all: false,
    readOnly: true,
    teams: { [GLOBAL_TEAM]: 'r', 'team.net:west': 'r' },
    roles: ['ops_user'],
  },
  team_ops: {
    password: 'pw-Team-3',
    all: false,
    readOnly: false,
    teams: { 'team.ops:east': 'rw' },
    roles: ['ops_team_admin'],
  },
};

export function authenticate(header) {
  if (!header || !/^basic\s+/i.test(header)) return null;
  let decoded;
  try {
    decoded = Buffer.from(header.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
  } catch {
    return null;
  }
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  const name = decoded.slice(0, i);
  const pw = decoded.slice(i + 1);
  const u = Object.hasOwn(USERS, name) ? USERS[name] : null;
  if (!u || u.password !== pw) return null;
  return { name, ...u };
}

export function teamAccess(user, team) {
  if (user.all) return 'rw';
  return (user.teams && Object.hasOwn(user.teams, team) && user.teams[team]) || '';
}
export const canReadTeam = (user, team) => teamAccess(user, team).includes('r');
export const canWriteTeam = (user, team) => !user.readOnly && teamAccess(user, team) === 'rw';

// ---------------------------------------------------------------- collections
const collections = new Map();
export function coll(type) {
  let c = collections.get(type);
  if (!c) {
    c = new Map();
    collections.set(type, c);
  }
  return c;
}

// teams an object belongs to
export function objTeams(type, obj) {
  if (type === 'team') return [obj._key];
  if (type === 'maintenance_calendar' && Array.isArray(obj.sec_grp_list) && obj.sec_grp_list.length) return obj.sec_grp_list;
  return [isStr(obj.sec_grp) && obj.sec_grp ? obj.sec_grp : GLOBAL_TEAM];
}
// a caller reads an object when it can read EVERY team the object belongs to
export const canRead = (user, type, obj) => objTeams(type, obj).every((t) => canReadTeam(user, t));
export const canWrite = (user, type, obj) => objTeams(type, obj).every((t) => canWriteTeam(user, t));

export function visibleList(user, type) {
  return [...coll(type).values()].filter((o) => canRead(user, type, o));
}

// fetch an object the caller can read; hidden and missing objects are both 404
export function getReadable(user, type, key, label) {
  const o = coll(type).get(key);
  if (!o || !canRead(user, type, o)) throw notFound(`${label || type} with key "${key}" does not exist`);
  return o;
}
export function getWritable(user, type, key, label) {
  const o = getReadable(user, type, key, label);
  if (!canWrite(user, type, o)) throw forbidden(`User "${user.name}" cannot write ${label || type} "${key}"`);
  return o;
}

// every write request first goes through this gate
export function requireWriter(user) {
  if (user.readOnly) throw forbidden(`User "${user.name}" has read-only access and cannot change objects`);
}

export function teamExists(key) {
  return coll('team').has(key);
}

// validate the team(s) an object is being written into
export function checkTargetTeams(user, teams) {
  for (const t of teams) {
    if (!isStr(t) || !t) throw bad('sec_grp must be a non-empty string');
    if (t !== GLOBAL_TEAM && !teamExists(t)) throw bad(`Team (sec_grp) "${t}" does not exist`);
    if (!canWriteTeam(user, t)) throw forbidden(`User "${user.name}" cannot write objects of team "${t}"`);
  }
}

// per-caller permissions object
export function permissionsFor(user, type, obj) {
  const r = canRead(user, type, obj);
  const w = canWrite(user, type, obj);
  return { user: user.name, group: { read: r, write: w, delete: w }, read: r, write: w, delete: w };
}

export function snapshotAll() {
  const out = new Map();
  for (const [t, c] of collections) out.set(t, new Map([...c].map(([k, v]) => [k, clone(v)])));
  return out;
}
export function restoreAll(saved) {
  collections.clear();
  for (const [t, c] of saved) collections.set(t, c);
}
