// Basic auth users and their team rights.
import { GLOBAL_TEAM, HttpError } from './util.mjs';

export const EDGE_TEAM = 'team-5e1d9c04-edge';
export const DB_TEAM = 'team-0a77b2f3-dbs';
export const PAY_TEAM = 'team-c41f60aa-pay';

const USERS = {
  ops_writer: { password: 'Wr1ter-pass', read: '*', write: '*', roles: ['ops_admin'] },
  ops_reader: { password: 'Re4der-pass', read: [GLOBAL_TEAM, DB_TEAM], write: [], roles: ['ops_user'] },
  team_edge: { password: 'Ed9e-pass', read: [EDGE_TEAM], write: [EDGE_TEAM], roles: ['ops_team_admin'] },
};

export function authenticate(req) {
  const h = req.headers['authorization'];
  if (typeof h !== 'string') return null;
  const m = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(h);
  if (!m) return null;
  let dec;
  try {
    dec = Buffer.from(m[1], 'base64').toString('utf8');
  } catch {
    return null;
  }
  const i = dec.indexOf(':');
  if (i < 0) return null;
  const name = dec.slice(0, i);
  const pw = dec.slice(i + 1);
  const u = Object.hasOwn(USERS, name) ? USERS[name] : undefined;
  if (!u || u.password !== pw) return null;
  return { name, ...u };
}

export const canReadTeam = (user, team) => user.read === '*' || user.read.includes(team);
export const canWriteTeam = (user, team) => user.write === '*' || user.write.includes(team);
export const isWriter = (user) => user.write === '*' || user.write.length > 0;
export function requireWriter(user) {
  if (!isWriter(user)) throw new HttpError(403, `User ${user.name} has read-only access`);
}
