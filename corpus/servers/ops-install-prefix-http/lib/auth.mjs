// Basic auth users and team-based access.
import { GLOBAL, ApiError } from './util.mjs';

export const USERS = {
  cfg_admin: { password: 'Cfg-Adm1n', read: '*', write: '*', roles: ['ops_admin'] },
  cfg_view: { password: 'Cfg-V1ew', read: [GLOBAL, 'SRE'], write: [], roles: ['ops_user'] },
  team_noc: { password: 'N0c-team', read: ['NOC'], write: ['NOC'], roles: ['ops_team_admin'] },
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
  const name = dec.slice(0, i);
  const pw = dec.slice(i + 1);
  const u = Object.hasOwn(USERS, name) ? USERS[name] : null;
  if (!u || u.password !== pw) return null;
  return { name, ...u };
}

export class Unauthenticated extends ApiError {
  constructor() {
    super(401, 'UNAUTHENTICATED', 'call not properly authenticated');
  }
}

export function canRead(user, team) {
  if (user.read === '*') return true;
  return user.read.includes(team || GLOBAL);
}
export function canWrite(user, team) {
  if (user.write === '*') return true;
  return user.write.includes(team || GLOBAL);
}
// Resources without a team (icons, content packs, event management): readable by every
// authenticated user, writable only by users who can write the Global team.
export const canWriteGlobalResource = (user) => canWrite(user, GLOBAL);
export const canReadAll = (user, teams) => teams.every((t) => canRead(user, t));
export const canWriteAll = (user, teams) => teams.every((t) => canWrite(user, t));
