import type { IncomingHttpHeaders } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { basicCredentials } from '../http/auth';
import type { Doc, OpsUser } from './config';

/** The user named by valid basic credentials, or undefined (the platform layer then answers 401). */
export function authenticate(headers: IncomingHttpHeaders, users: readonly OpsUser[]): OpsUser | undefined {
  const creds = basicCredentials(headers);
  if (creds === undefined) return undefined;
  const user = users.find((u) => u.name === creds.user);
  if (user === undefined) return undefined;
  const given = Buffer.from(creds.password, 'utf8');
  const expected = Buffer.from(user.password, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected) ? user : undefined;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

export function isWrite(method: string): boolean {
  return WRITE_METHODS.has(method.toUpperCase());
}

/** The security groups an object belongs to; an object without any is in the default (Global) group. */
function groupsOf(doc: Doc, defaultGroup: string): string[] {
  const groups: string[] = [];
  if (typeof doc.sec_grp === 'string' && doc.sec_grp !== '') groups.push(doc.sec_grp);
  if (Array.isArray(doc.sec_grp_list)) {
    for (const g of doc.sec_grp_list) if (typeof g === 'string' && g !== '') groups.push(g);
  }
  return groups.length === 0 ? [defaultGroup] : groups;
}

export function canRead(user: OpsUser, doc: Doc, defaultGroup: string): boolean {
  if (user.readGroups === undefined) return true;
  const allowed = user.readGroups;
  return groupsOf(doc, defaultGroup).some((g) => allowed.includes(g));
}

export function canReadGroup(user: OpsUser, group: string): boolean {
  return user.readGroups === undefined || user.readGroups.includes(group);
}

/** The `permissions` summary of an object for this caller, as the retirable list shows it. */
export function permissionsFor(user: OpsUser, doc: Doc, defaultGroup: string) {
  const read = canRead(user, doc, defaultGroup);
  const write = read && !user.readOnly;
  return { user: user.name, group: { read, write, delete: write }, read, write, delete: write };
}
