// Users, teams and the access checks.
import { GLOBAL, HttpError } from './util.mjs';

export const TEAM_DB = '6b1f3e52-9a0c-4d57-8e21-d0b5c4a7f913'; // "Database Team"
export const TEAM_NET = 'c2d8a9e4-1f6b-47a3-b5e0-83f1d6c2a057'; // "Network Team"
export const TEAM_FIN = 'f0e9d8c7-3b2a-4c1d-9e8f-7a6b5c4d3e21'; // "Finance Team" (root only)

export const USERS = {
  root_ops: { password: 'R00t-ops!', read: '*', write: '*', roles: ['ops_admin'] },
  viewer_ops: { password: 'V1ewer-ops!', read: [GLOBAL, TEAM_NET], write: [], roles: ['ops_user'] },
  team_db: { password: 'Db-team-9', read: [TEAM_DB], write: [TEAM_DB], roles: ['ops_team_admin'] },
};

export function authenticate(req) {
  const h = req.headers['authorization'];
  if (typeof h !== 'string') return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(h);
  if (!m) return null;
  let dec;
  try {
    dec = Buffer.from(m[1], 'base64').toString('utf8');
  } catch {
    return null;
  }
  const i = dec.indexOf(':');
  if (i < 0) return null;
  const name = dec.slice(0, i),
    pw = dec.slice(i + 1);
  const u = Object.hasOwn(USERS, name) ? USERS[name] : null;
  if (!u || u.password !== pw) return null;
  return { name, ...u };
}

export function unauthenticated() {
  const e = new HttpError(401, 'call not properly authenticated');
  e.platform = true;
  return e;
}

export const canRead = (u, grp) => u.read === '*' || u.read.includes(grp || GLOBAL);
export const canWrite = (u, grp) => u.write === '*' || u.write.includes(grp || GLOBAL);
export const isAdmin = (u) => u.write === '*';

// Permissions object as carried by the retirable list.
export function permissionsFor(u, grp) {
  const r = canRead(u, grp),
    w = canWrite(u, grp);
  return { user: u.name, group: { read: r, write: w, delete: w }, read: r, write: w, delete: w };
}
