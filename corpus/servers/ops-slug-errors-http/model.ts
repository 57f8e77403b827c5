// biome-ignore-all lint/suspicious/noExplicitAny: stored objects are free-form JSON documents, read and written field by field
import { forbidden, bad, isoWithOffset, modTimeString, newKey } from './util.js';

export const GLOBAL_TEAM = 'default_ops_security_group';
export const LIMITED_TEAM = 'team_limited_ops_7c1e';
export const SCHEMA_VERSION = '4.19.1';
const MOD_SOURCE = 'rest_interface';

export interface User {
  name: string;
  password: string;
  canWriteAnything: boolean; // write capability at all
  allTeams: boolean; // read (and, with write, write) every team
  ownTeams: string[];
  roles: string[];
}

export const USERS: Record<string, User> = {
  admin: { name: 'admin', password: 'admin-pw', canWriteAnything: true, allTeams: true, ownTeams: [], roles: ['ops_admin'] },
  viewer: { name: 'viewer', password: 'viewer-pw', canWriteAnything: false, allTeams: true, ownTeams: [], roles: ['ops_user'] },
  limited: {
    name: 'limited',
    password: 'limited-pw',
    canWriteAnything: true,
    allTeams: false,
    ownTeams: [LIMITED_TEAM],
    roles: ['ops_team_limited'],
  },
};

// ----------------------------------------------------------------- stores

export class Store {
  private m = new Map<string, any>();
  get(k: string) {
    return this.m.get(k);
  }
  has(k: string) {
    return this.m.has(k);
  }
  set(k: string, v: any) {
    this.m.set(k, v);
  }
  delete(k: string) {
    return this.m.delete(k);
  }
  /** Unsorted order: most recently created first. */
  values(): any[] {
    return [...this.m.values()].reverse();
  }
  get size() {
    return this.m.size;
  }
}

const stores = new Map<string, Store>();
export function store(name: string): Store {
  let s = stores.get(name);
  if (!s) {
    s = new Store();
    stores.set(name, s);
  }
  return s;
}

// ----------------------------------------------------------------- access

/** Teams an object belongs to. null => unrestricted object (no team). */
export function teamsOf(obj: any): string[] | null {
  if (!obj || typeof obj !== 'object') return null;
  if (obj.object_type === 'team') return [String(obj._key)];
  if (obj.object_type === 'maintenance_calendar' && Array.isArray(obj.sec_grp_list) && obj.sec_grp_list.length) {
    return obj.sec_grp_list.map(String);
  }
  if (typeof obj.sec_grp === 'string' && obj.sec_grp) return [obj.sec_grp];
  return null;
}

export function canReadTeams(u: User, teams: string[] | null): boolean {
  if (!teams) return true;
  if (u.allTeams) return true;
  return teams.every((t) => u.ownTeams.includes(t));
}

export function canWriteTeams(u: User, teams: string[] | null): boolean {
  if (!u.canWriteAnything) return false;
  if (!teams) return true;
  if (u.allTeams) return true;
  return teams.every((t) => u.ownTeams.includes(t));
}

export const canRead = (u: User, obj: any) => canReadTeams(u, teamsOf(obj));
export const canWrite = (u: User, obj: any) => canWriteTeams(u, teamsOf(obj));

export function requireWriter(u: User) {
  if (!u.canWriteAnything) throw forbidden(`user '${u.name}' has read-only access; write operations are not permitted`);
}

export function requireGlobalWrite(u: User, what: string) {
  requireWriter(u);
  if (!canWriteTeams(u, [GLOBAL_TEAM])) throw forbidden(`${what} requires write access to the Global team`);
}

/** Team assigned to a new object when the payload names none. */
export function defaultTeamFor(u: User): string {
  if (canWriteTeams(u, [GLOBAL_TEAM]) || u.allTeams) return GLOBAL_TEAM;
  return u.ownTeams[0] ?? GLOBAL_TEAM;
}

export function validateTeamsExist(teams: string[] | null) {
  if (!teams) return;
  const t = store('itoa:team');
  for (const k of teams) if (!t.has(k)) throw bad(`security group '${k}' does not exist`);
}

export function permissionsFor(u: User, obj: any) {
  const r = canRead(u, obj);
  const w = canWrite(u, obj);
  return { user: u.name, group: { read: r, write: w, delete: w }, read: r, write: w, delete: w };
}

// ----------------------------------------------------------------- stamping

export function stampCommon(obj: any, objectType: string, ctx: { user: User; pathUser: string }, isCreate: boolean) {
  const now = new Date();
  if (typeof obj._key !== 'string' || !obj._key) obj._key = newKey();
  obj.object_type = objectType;
  obj._version = SCHEMA_VERSION;
  if (typeof obj._user !== 'string' || !obj._user) obj._user = ctx.pathUser || 'nobody';
  obj.mod_source = MOD_SOURCE;
  obj.mod_timestamp = isoWithOffset(now);
  if (typeof obj.title === 'string') obj.identifying_name = obj.title.toLowerCase();
  if (objectType === 'entity') {
    obj._type = 'entity';
    obj.mod_time = modTimeString(now);
    obj.mod_by = ctx.user.name;
    if (isCreate || !obj.create_time) {
      obj.create_time = obj.create_time && !isCreate ? obj.create_time : isoWithOffset(now);
      obj.create_by = obj.create_by && !isCreate ? obj.create_by : ctx.user.name;
      obj.create_source = obj.create_source && !isCreate ? obj.create_source : MOD_SOURCE;
    }
  } else {
    obj.mod_time = modTimeString(now);
  }
  return obj;
}
