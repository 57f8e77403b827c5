// Backup and restore jobs (backup_restore_interface).
import {
  GLOBAL,
  bad,
  invalid,
  notFound,
  forbidden,
  methodNotAllowed,
  isObj,
  clone,
  deepMerge,
  boolParam,
  hexKey,
  nowEpoch,
  plainTime,
  lastParam,
} from './util.mjs';
import { db, stamp } from './store.mjs';
import { canRead, canWrite } from './auth.mjs';
import { sharedQuery, select, project, filterPredicate } from './query.mjs';
import { bug } from './bugs.mjs';

const TYPE = 'backup_restore';
export const DEFAULT_BACKUP_KEY = 'ops_default_scheduled_backup';
const JOB_TYPES = ['Backup', 'Restore'];
const QUEUE_SECONDS = 5;

// Queued jobs complete QUEUE_SECONDS after they were queued (evaluated lazily on each request).
// Only jobs queued through the API progress; seeded queued jobs stay queued.
const autoProgress = new Set();
function tick() {
  const now = nowEpoch();
  for (const j of db.backup.values()) {
    if (
      autoProgress.has(j._key) &&
      j.status === 'Queued' &&
      typeof j.last_queued_time === 'number' &&
      now - j.last_queued_time >= QUEUE_SECONDS
    ) {
      j.status = 'Completed';
      j.start_time = Math.round((j.last_queued_time + 1) * 1000) / 1000;
      j.end_time = Math.round((j.last_queued_time + QUEUE_SECONDS - 0.5) * 1000) / 1000;
      if (!j.path) j.path = `/opt/platform/var/ops/backups/${j._key}.zip`;
      j.last_error = j.last_error || 'None';
    }
  }
}

function validateJob(j) {
  if (typeof j.title !== 'string' || !j.title) throw invalid('Required field "title" is missing', 'MISSING_REQUIRED_FIELD');
  if (j.job_type === undefined) j.job_type = 'Backup';
  if (!JOB_TYPES.includes(j.job_type)) throw invalid(`job_type must be one of ${JOB_TYPES.join(', ')}`, 'INVALID_FIELD');
  if (j.status === undefined) j.status = 'Queued';
  if (typeof j.status !== 'string' || !j.status) throw invalid('status must be a string', 'INVALID_FIELD');
  if (j.rules === undefined) j.rules = [];
  if (!Array.isArray(j.rules)) throw invalid('rules must be an array', 'INVALID_FIELD');
  for (const f of ['start_time', 'end_time', 'last_queued_time']) {
    if (j[f] !== undefined && j[f] !== null && typeof j[f] !== 'number') throw invalid(`${f} must be epoch seconds`, 'INVALID_FIELD');
  }
  j.sec_grp = GLOBAL;
}

const readable = (user) => canRead(user, GLOBAL);
const writable = (user) => canWrite(user, GLOBAL);

export function handleBackup(ctx) {
  const { segs, method, q, user } = ctx;
  tick();
  const [a, b] = segs;
  if (!a) throw notFound('No such endpoint');
  if (a !== TYPE) throw bad(`(400, 'Unsupported object type: ${String(a).slice(0, 80)}')`, 'UNSUPPORTED_OBJECT_TYPE');
  const rows = () => (readable(user) ? [...db.backup.values()].reverse() : []);
  if (segs.length === 1) {
    if (method === 'GET') {
      const sq = sharedQuery(q);
      return ctx.reply(
        200,
        select(rows(), sq).map((j) => project(clone(j), sq.fields)),
      );
    }
    if (method === 'POST') {
      const body = ctx.json();
      if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
      if (typeof body._key === 'string' && db.backup.has(body._key)) {
        update(ctx, body._key, body, false);
        return ctx.reply(200, { _key: body._key });
      }
      const j = clone(body);
      if (j._key !== undefined && (typeof j._key !== 'string' || !j._key))
        throw invalid('_key must be a non-empty string', 'INVALID_FIELD');
      if (!j._key) j._key = hexKey();
      validateJob(j);
      if (!writable(user)) throw forbidden(`User ${user.name} cannot create backup or restore jobs`);
      const now = nowEpoch();
      j.create_time = plainTime();
      if (j.status === 'Queued') j.last_queued_time = now;
      for (const f of ['start_time', 'end_time']) if (j[f] === undefined) j[f] = 0;
      if (j.last_queued_time === undefined) j.last_queued_time = 0;
      if (j.path === undefined) j.path = '';
      if (j.search_head_id === undefined) j.search_head_id = 'sh-3f9a27c1';
      if (j.platform_server === undefined) j.platform_server = 'ops-sh01.example.internal';
      if (j.last_error === undefined) j.last_error = 'None';
      j._owner = user.name;
      stamp(j, TYPE, user);
      db.backup.set(j._key, j);
      autoProgress.add(j._key);
      return ctx.reply(201, { _key: j._key });
    }
    if (method === 'DELETE') {
      if (!writable(user)) throw forbidden(`User ${user.name} cannot delete backup or restore jobs`);
      const sq = sharedQuery(q);
      for (const j of select(rows(), sq)) {
        if (j._key === DEFAULT_BACKUP_KEY && !bug('backup_default_bulk_delete')) continue;
        db.backup.delete(j._key);
      }
      return ctx.reply(200, null);
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (b === 'count' && segs.length === 2) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return ctx.reply(200, { count: rows().filter(filterPredicate(lastParam(q, 'filter'))).length });
  }
  if (segs.length !== 2) throw notFound('No such endpoint');
  const key = b;
  const j = db.backup.get(key);
  if (method === 'GET') {
    if (!j || !readable(user)) throw notFound(`No backup_restore job with _key ${key}`);
    return ctx.reply(200, clone(j));
  }
  if (method === 'POST') {
    const partial = boolParam(q, 'is_partial_data', false);
    update(ctx, key, ctx.json(), partial);
    return ctx.reply(200, { _key: key });
  }
  if (method === 'DELETE') {
    if (!j || !readable(user)) throw notFound(`No backup_restore job with _key ${key}`);
    if (!writable(user)) throw forbidden(`User ${user.name} cannot delete backup or restore jobs`);
    // The default scheduled backup cannot be deleted: the call answers like a delete but changes nothing.
    if (key !== DEFAULT_BACKUP_KEY) db.backup.delete(key);
    return ctx.reply(200, null);
  }
  throw methodNotAllowed(['GET', 'POST', 'DELETE']);
}

function update(ctx, key, body, partial) {
  const { user } = ctx;
  const j = db.backup.get(key);
  if (!j || !readable(user)) throw notFound(`No backup_restore job with _key ${key}`);
  if (!writable(user)) throw forbidden(`User ${user.name} cannot change backup or restore jobs`);
  if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
  let n;
  if (partial) {
    n = clone(j);
    const p = clone(body);
    delete p._key;
    deepMerge(n, p);
  } else {
    n = clone(body);
    n._key = key;
    n.create_time = j.create_time;
  }
  validateJob(n);
  if (n.status === 'Queued' && j.status !== 'Queued') {
    n.last_queued_time = nowEpoch();
    autoProgress.add(key);
  }
  n._owner = j._owner;
  stamp(n, TYPE, user);
  db.backup.set(key, n);
}
