// Backup and restore interface (backup_restore_interface).
import { bad, notFound, isStr, isNum, boolParam01, spaceSeconds, epochFloat } from './util.mjs';
import { coll, requireWriter } from './store.mjs';
import {
  listObjects,
  countObjects,
  getObject,
  createObject,
  replaceObject,
  deleteObject,
  bulkDelete,
  methodNotAllowed,
} from './objects.mjs';
import { bug } from './bugs.mjs';

const TYPE = 'backup_restore';
export const DEFAULT_BACKUP_KEY = 'bkp.000001:df';
const JOB_TYPES = ['Backup', 'Restore'];
const STATUSES = ['Not Started', 'Queued', 'In Progress', 'Completed', 'Failed'];
const TO_RUNNING = 3; // seconds a queued job waits before it starts
const TO_DONE = 8; // seconds after queueing when it completes

// jobs progress lazily: Queued -> In Progress -> Completed, evaluated on every read
function advance() {
  const now = epochFloat();
  for (const j of coll(TYPE).values()) {
    if (!isNum(j.last_queued_time)) continue;
    const age = now - j.last_queued_time;
    if (j.status === 'Queued' && age >= TO_RUNNING) {
      j.status = 'In Progress';
      j.start_time = j.last_queued_time + TO_RUNNING;
    }
    if (j.status === 'In Progress' && age >= TO_DONE) {
      j.status = 'Completed';
      j.end_time = j.last_queued_time + TO_DONE;
      if (!j.path) j.path = `/opt/platform/var/ops/backups/${j._key.replace(/[^A-Za-z0-9._-]/g, '_')}/backup.zip`;
      j.last_error = '';
    }
  }
}

export const backupKind = {
  type: TYPE,
  prefix: 'bkp',
  label: 'Backup/restore job',
  known: [
    'job_type',
    'status',
    'start_time',
    'end_time',
    'last_queued_time',
    'path',
    'search_head_id',
    'platform_server',
    'rules',
    'last_error',
    'scheduled',
    'frequency',
    'backup_type',
  ],
  owner: (user) => user.name,
  beforeRead: advance,
  validate(b) {
    if (b.job_type !== undefined && !JOB_TYPES.includes(b.job_type)) throw bad(`Field "job_type" must be one of ${JOB_TYPES.join(', ')}`);
    if (b.status !== undefined && !STATUSES.includes(b.status)) throw bad(`Field "status" must be one of ${STATUSES.join(', ')}`);
    for (const f of ['start_time', 'end_time', 'last_queued_time'])
      if (b[f] !== undefined && b[f] !== null && !isNum(b[f])) throw bad(`Field "${f}" must be a number (epoch seconds)`);
    for (const f of ['path', 'search_head_id', 'platform_server', 'last_error'])
      if (b[f] !== undefined && !isStr(b[f])) throw bad(`Field "${f}" must be a string`);
    if (b.rules !== undefined && !Array.isArray(b.rules)) throw bad('Field "rules" must be an array');
  },
  defaults(obj) {
    if (obj.job_type === undefined) obj.job_type = 'Backup';
    if (obj.status === undefined) obj.status = 'Queued';
    if (obj.rules === undefined) obj.rules = [];
    if (obj.path === undefined) obj.path = '';
    if (obj.last_error === undefined) obj.last_error = '';
    if (obj.search_head_id === undefined) obj.search_head_id = 'sh-7f3a9c21.ops:8089';
    if (obj.platform_server === undefined) obj.platform_server = 'ops-sh-01.example.internal';
    if (obj.start_time === undefined) obj.start_time = 0;
    if (obj.end_time === undefined) obj.end_time = 0;
  },
  stamp(obj, prev) {
    obj.create_time = prev && isStr(prev.create_time) ? prev.create_time : spaceSeconds();
    if (obj.status === 'Queued' && (prev?.status !== 'Queued' || obj.last_queued_time === undefined)) obj.last_queued_time = epochFloat();
  },
  undeletable(o, bulk) {
    if (o._key !== DEFAULT_BACKUP_KEY) return '';
    if (bulk && bug('default_backup_deletable')) return '';
    return 'The default scheduled backup cannot be deleted';
  },
};

export async function handleBackup(ctx, segs) {
  const m = ctx.method;
  const [a, b] = segs;
  if (a !== TYPE) throw notFound(a ? `Unknown backup/restore object type "${a}"` : 'No object type in the path');
  const kind = backupKind;
  if (segs.length === 1) {
    if (m === 'GET') return { body: listObjects(kind, ctx) };
    if (m === 'POST') {
      requireWriter(ctx.user);
      const r = createObject(kind, ctx, await ctx.json(true));
      return { status: 201, body: { _key: r.key } };
    }
    if (m === 'DELETE') {
      bulkDelete(kind, ctx);
      return { status: 204 };
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (segs.length === 2 && b === 'count') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    advance();
    return { body: countObjects(kind, ctx) };
  }
  if (segs.length === 2) {
    if (m === 'GET') return { body: getObject(kind, ctx, b) };
    if (m === 'POST') {
      requireWriter(ctx.user);
      advance();
      const partial = boolParam01(ctx.query, 'is_partial_data', false);
      return { body: { _key: replaceObject(kind, ctx, b, await ctx.json(true), partial) } };
    }
    if (m === 'DELETE') {
      deleteObject(kind, ctx, b);
      return { status: 204 };
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound('Unknown backup/restore path');
}
