// Basic authentication and team-based access.
import { bug } from './bugs.mjs';
import { HttpError } from './http.mjs';

export const GLOBAL_TEAM = 'default_ops_security_group';
export const OWN_TEAM = 'team_lenient_operations';

const USERS = {
  lenient_admin: { password: 'Len1ent-admin!', name: 'lenient_admin', write: true, teams: '*', roles: ['ops_admin'] },
  lenient_viewer: { password: 'Len1ent-view!', name: 'lenient_viewer', write: false, teams: '*', roles: ['ops_user'] },
  lenient_team: { password: 'Len1ent-team!', name: 'lenient_team', write: true, teams: [OWN_TEAM], roles: ['ops_team_admin'] },
};

export function authenticate(req) {
  const header = req.headers.authorization || '';
  const m = /^Basic\s+(.+)$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  const user = USERS[decoded.slice(0, i)];
  if (!user || user.password !== decoded.slice(i + 1)) return null;
  return user;
}

export class AuthError extends HttpError {
  constructor() {
    super(401, 'call not properly authenticated');
  }
}

export function canWriteAtAll(user) {
  return user.write || bug('viewer-can-write');
}

export function canReadTeam(user, team) {
  if (user.teams === '*') return true;
  return user.teams.includes(team || GLOBAL_TEAM);
}

export function canWriteTeam(user, team) {
  return canWriteAtAll(user) && canReadTeam(user, team);
}

/** Stops a caller without write capability. */
export function requireWriter(user) {
  if (!canWriteAtAll(user)) throw new HttpError(403, `user ${user.name} has read-only access`);
}

export function requireTeamWrite(user, team) {
  requireWriter(user);
  if (!canReadTeam(user, team)) throw new HttpError(403, `user ${user.name} cannot write objects of team ${team || GLOBAL_TEAM}`);
}

/** The permissions block the platform attaches to an object for the calling user. */
export function permissionsFor(user, team) {
  const read = canReadTeam(user, team);
  const write = read && canWriteAtAll(user);
  return { user: user.name, group: { read, write, delete: write }, read, write, delete: write };
}
