// Basic-auth users and team (security group) based access.
import crypto from 'node:crypto';
import { GLOBAL_TEAM, forbidden } from './util.mjs';

export const USERS = {
  'ops-admin': { password: 'Adm1n-pass', read: '*', write: '*', realname: 'Operations Administrator' },
  auditor: { password: 'Aud1t-pass', read: [GLOBAL_TEAM, 'team_storage'], write: [], realname: 'Read-only Auditor' },
  netops: { password: 'N3tops-pass', read: ['team_netops'], write: ['team_netops'], realname: 'Network Operations' },
};

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
  const name = decoded.slice(0, i),
    pass = decoded.slice(i + 1);
  const u = Object.hasOwn(USERS, name) ? USERS[name] : null;
  if (!u) return null;
  const a = Buffer.from(pass),
    b = Buffer.from(u.password);
  if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) return null;
  return { name, ...u };
}

export const canRead = (user, team) => user.read === '*' || user.read.includes(team || GLOBAL_TEAM);
export const canWrite = (user, team) => user.write === '*' || user.write.includes(team || GLOBAL_TEAM);
export const writesAnything = (user) => user.write === '*' || user.write.length > 0;

export function requireWriter(user) {
  if (!writesAnything(user)) throw forbidden(`User ${user.name} has read-only access`);
}
export function requireWriteTeam(user, team) {
  requireWriter(user);
  if (!canWrite(user, team)) throw forbidden(`User ${user.name} cannot write objects of team ${team || GLOBAL_TEAM}`);
}
export function requireReadTeam(user, team) {
  if (!canRead(user, team)) throw forbidden(`User ${user.name} cannot read objects of team ${team || GLOBAL_TEAM}`);
}
