// Maintenance (maintenance_services_interface) and backup/restore (backup_restore_interface).
import {
  bad,
  notFound,
  forbidden,
  methodNotAllowed,
  isPlainObject,
  toEpochNumber,
  nowMicros,
  epochSeconds,
  plainTimeString,
  GLOBAL,
} from './util.mjs';
import { canRead, canWrite } from './access.mjs';
import { core, maintenance, backup, metaOf } from './store.mjs';
import { hooksFor, listObjects, getObject, countObjects, createObject, updateObject, deleteOne, deleteMany } from './kv.mjs';
import { bug } from './bugs.mjs';

function objectTeam(o) {
  const coll = o.object_type === 'service' ? core.service : core.entity;
  const d = coll.get(o._key);
  return d ? d.sec_grp || GLOBAL : null;
}

// A window is readable when the caller can read its own team AND every team in sec_grp_list.
const maintReadable = (doc, u) => canRead(u, doc.sec_grp) && (doc.sec_grp_list || []).every((g) => canRead(u, g));
const maintWritable = (doc, u) => canWrite(u, doc.sec_grp) && (doc.sec_grp_list || []).every((g) => canWrite(u, g));

const maintHooks = {
  maintenance_calendar: {
    schema: ['start_time', 'end_time', 'objects', 'sec_grp_list', 'comment'],
    required: ['title', 'start_time', 'end_time'],
    readable: maintReadable,
    writable: maintWritable,
    normalize(doc, ctx, existing) {
      for (const f of ['start_time', 'end_time']) if (doc[f] !== undefined) doc[f] = toEpochNumber(doc[f], f);
      if (doc.objects === undefined) doc.objects = [];
      if (!Array.isArray(doc.objects)) throw bad("Field 'objects' must be an array of {object_type, _key}");
      for (const o of doc.objects) {
        if (!isPlainObject(o) || (o.object_type !== 'service' && o.object_type !== 'entity') || typeof o._key !== 'string') {
          throw bad("Each entry of 'objects' must be {object_type: 'service' or 'entity', _key: string}");
        }
      }
      // sec_grp_list: the teams of the objects in the window (computed)
      const teams = new Set();
      for (const o of doc.objects) {
        const t = objectTeam(o);
        if (t) teams.add(t);
      }
      doc.sec_grp_list = [...teams];
      doc._owner = existing?._owner ? existing._owner : ctx.user.name;
    },
  },
  operative_maintenance_log: {
    schema: ['maintenance_object_key', 'maintenance_object_type', 'start_time', 'end_time'],
    normalize(doc, ctx, existing) {
      for (const f of ['start_time', 'end_time']) if (doc[f] !== undefined) doc[f] = toEpochNumber(doc[f], f);
      doc._owner = existing?._owner ? existing._owner : ctx.user.name;
    },
  },
};

export const DEFAULT_BACKUP_KEY = 'ops_default_scheduled_backup';

const backupHooks = {
  backup_restore: {
    schema: [
      'job_type',
      'status',
      'create_time',
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
    ],
    normalize(doc, ctx, existing) {
      const m = nowMicros();
      if (doc.job_type === undefined) doc.job_type = 'Backup';
      if (typeof doc.job_type !== 'string') throw bad("Field 'job_type' must be a string");
      if (doc.status === undefined) doc.status = 'Queued';
      if (typeof doc.status !== 'string') throw bad("Field 'status' must be a string");
      for (const f of ['start_time', 'end_time', 'last_queued_time']) {
        if (doc[f] !== undefined && doc[f] !== null) doc[f] = toEpochNumber(doc[f], f);
      }
      doc.create_time = existing?.create_time ? existing.create_time : plainTimeString(m);
      if (doc.status === 'Queued' && existing?.status !== 'Queued') doc.last_queued_time = epochSeconds(m);
      if (doc.rules === undefined) doc.rules = [];
      if (!Array.isArray(doc.rules)) throw bad("Field 'rules' must be an array");
      if (doc.last_error === undefined) doc.last_error = '';
      if (doc.path === undefined) doc.path = '';
      doc.search_head_id = typeof doc.search_head_id === 'string' ? doc.search_head_id : '8F3C2B1A-5D4E-4F60-9A7B-1C2D3E4F5A6B';
      doc.platform_server = typeof doc.platform_server === 'string' ? doc.platform_server : 'sh01.ops.example.net';
      doc._owner = existing?._owner ? existing._owner : ctx.user.name;
      if (!existing) metaOf(doc._key).autoComplete = true;
    },
    // Queued jobs are picked up by the (simulated) worker: they are Completed once read >= 3 s later.
    view(doc) {
      if (doc.status === 'Queued' && typeof doc.last_queued_time === 'number' && metaOf(doc._key).autoComplete) {
        const now = epochSeconds(nowMicros());
        if (now - doc.last_queued_time >= 3) {
          doc.status = 'Completed';
          doc.start_time = doc.last_queued_time + 1;
          doc.end_time = now;
          if (!doc.path) doc.path = `/opt/platform/var/ops/backups/${doc._key}.zip`;
          backup.backup_restore.put(doc._key, doc);
        }
      }
      return doc;
    },
    beforeDelete(doc, _ctx, _kind) {
      if (doc._key === DEFAULT_BACKUP_KEY && !bug('default_backup_deletable')) {
        throw forbidden('The default scheduled backup cannot be deleted');
      }
    },
    protectedFromBulk: (doc) => doc._key === DEFAULT_BACKUP_KEY && !bug('default_backup_deletable'),
  },
};

function kvInterface(ctx, rest, colls, registry, { countRestricted, supportedTypesEndpoint }) {
  const m = ctx.method;
  const [a, b] = rest;
  if (rest.length === 0) throw notFound('No object type given');
  if (supportedTypesEndpoint && a === 'get_supported_object_types' && rest.length === 1) {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return Object.keys(colls);
  }
  if (!Object.hasOwn(colls, a)) throw bad(`Unsupported object type '${a}'`);
  const coll = colls[a];
  const h = hooksFor(registry, a);
  if (rest.length === 1) {
    if (m === 'GET') return listObjects(coll, h, ctx);
    if (m === 'POST') return createObject(coll, a, h, ctx, ctx.body);
    if (m === 'DELETE') return deleteMany(coll, a, h, ctx);
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (rest.length === 2) {
    if (b === 'count') {
      if (m !== 'GET') throw methodNotAllowed(['GET']);
      const restricted = !(a === 'maintenance_calendar' && bug('maint_count_all'));
      return countObjects(coll, h, ctx, { accessRestricted: restricted && countRestricted });
    }
    if (m === 'GET') return getObject(coll, h, ctx, b);
    if (m === 'POST') return updateObject(coll, a, h, ctx, b, ctx.body);
    if (m === 'DELETE') return deleteOne(coll, a, h, ctx, b);
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound('Unknown endpoint');
}

export const handleMaintenance = (ctx, rest) =>
  kvInterface(ctx, rest, maintenance, maintHooks, { countRestricted: true, supportedTypesEndpoint: true });
export const handleBackup = (ctx, rest) =>
  kvInterface(ctx, rest, backup, backupHooks, { countRestricted: true, supportedTypesEndpoint: false });
