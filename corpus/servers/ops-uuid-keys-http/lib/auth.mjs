// Users, basic auth and team-based access checks.
import { GLOBAL_TEAM } from './util.mjs';

export const USERS = {
  admin: { name: 'admin', password: 's3cret-admin', canWrite: true, read: '*', write: '*', roles: ['admin', 'ops_admin'] },
  viewer: { name: 'viewer', password: 's3cret-view', canWrite: false, read: [GLOBAL_TEAM, 'team_blue'], write: [], roles: ['ops_user'] },
  teamwriter: {
    name: 'teamwriter',
    password: 's3cret-team',
    canWrite: true,
    read: ['team_green'],
    write: ['team_green'],
    roles: ['ops_team_admin'],
  },
};

export function authenticate(header) {
  if (typeof header !== 'string') return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
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
  const u = Object.hasOwn(USERS, name) ? USERS[name] : null;
  if (!u || u.password !== decoded.slice(i + 1)) return null;
  return u;
}

export const canReadTeam = (user, team) => user.read === '*' || user.read.includes(team);
export const canWriteTeam = (user, team) => user.canWrite && (user.write === '*' || user.write.includes(team));
export const canReadTeams = (user, teams) => teams.every((t) => canReadTeam(user, t));
export const canWriteTeams = (user, teams) => teams.every((t) => canWriteTeam(user, t));

export function permissionsFor(user, teams) {
  const r = canReadTeams(user, teams);
  const w = canWriteTeams(user, teams);
  return { user: user.name, group: { read: r, write: w, delete: w }, read: r, write: w, delete: w };
}
