// Maintenance windows (maintenance_services_interface) and backup/restore jobs (backup_restore_interface).

import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { badRequest, byMethod, isPlainObject, ok, unknownPath, type Ctx, type Doc, type Reply } from './ops-http.js';
import {
  buildWrite,
  commit,
  countObjects,
  createObject,
  deleteByFilter,
  deleteObject,
  getObject,
  listObjects,
  updateObject,
  type KindSpec,
} from './ops-objects.js';
import { plainDateTime } from './ops-store.js';

function epochField(doc: Doc, field: string): void {
  const v = doc[field];
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw badRequest(`Field "${field}" must be a number of epoch seconds`);
}

// ---------- maintenance windows ----------

const maintenanceSpec: KindSpec = {
  type: 'maintenance_calendar',
  coll: 'maint:maintenance_calendar',
  required: ['title', 'start_time', 'end_time'],
  countAccessBug: 'maintenance-count-access',
  prepare(ctx, doc, _prev, _meta, _mode, body) {
    epochField(doc, 'start_time');
    epochField(doc, 'end_time');
    if (typeof doc.start_time === 'number' && typeof doc.end_time === 'number' && doc.end_time <= doc.start_time) {
      throw badRequest('end_time must be later than start_time');
    }
    if (doc.objects === undefined || doc.objects === null) doc.objects = [];
    if (!Array.isArray(doc.objects)) throw badRequest('Field "objects" must be an array of {object_type, _key}');
    const groups = new Set<string>([String(doc.sec_grp)]);
    doc.objects = doc.objects.map((o) => {
      if (!isPlainObject(o) || (o.object_type !== 'service' && o.object_type !== 'entity') || typeof o._key !== 'string' || o._key === '') {
        throw badRequest('Every entry of "objects" must be {object_type: "service" or "entity", _key: string}');
      }
      const target = ctx.store.coll(`itoa:${o.object_type}`).get(o._key)?.doc;
      if (typeof target?.sec_grp === 'string') groups.add(target.sec_grp);
      return { object_type: o.object_type, _key: o._key };
    });
    if (Array.isArray(body.sec_grp_list)) {
      if (body.sec_grp_list.some((g) => typeof g !== 'string')) throw badRequest('Field "sec_grp_list" must be an array of strings');
      doc.sec_grp_list = [...new Set([String(doc.sec_grp), ...(body.sec_grp_list as string[])])];
    } else doc.sec_grp_list = [...groups];
    if (doc.comment === undefined) doc.comment = '';
  },
  present(ctx, doc) {
    doc.can_edit = ctx.user.write;
    return doc;
  },
};

// ---------- backup and restore jobs ----------

const DEFAULT_BACKUP_KEY = 'ops_default_scheduled_backup';

const backupSpec: KindSpec = {
  type: 'backup_restore',
  coll: 'backup:backup_restore',
  required: ['title'],
  countAccessBug: 'backup-count-access',
  preserved: ['create_time', 'last_queued_time', 'search_head_id', 'platform_server', 'path', 'scheduled', 'frequency'],
  undeletable: (doc) => (doc._key === DEFAULT_BACKUP_KEY ? 'The default scheduled backup cannot be deleted' : undefined),
  bulkUndeletableBug: 'backup-default-bulk-deletable',
  singleUndeletableBug: 'backup-default-deletable',
  prepare(ctx, doc, prev) {
    if (doc.job_type === undefined) doc.job_type = 'Backup';
    if (doc.job_type !== 'Backup' && doc.job_type !== 'Restore') throw badRequest('job_type must be "Backup" or "Restore"');
    if (doc.status === undefined) doc.status = 'Queued';
    if (typeof doc.status !== 'string') throw badRequest('Field "status" must be a string');
    for (const f of ['start_time', 'end_time', 'last_queued_time']) epochField(doc, f);
    const now = Math.floor(Date.now() / 1000);
    doc.create_time = prev?.create_time ?? plainDateTime();
    if (doc.last_queued_time === undefined) doc.last_queued_time = doc.status === 'Queued' ? now : 0;
    if (doc.start_time === undefined) doc.start_time = 0;
    if (doc.end_time === undefined) doc.end_time = 0;
    if (typeof doc.path !== 'string') doc.path = `$PLATFORM_HOME/var/ops/backups/${String(doc._key)}/backup.zip`;
    if (typeof doc.search_head_id !== 'string') doc.search_head_id = searchHeadId(ctx);
    if (typeof doc.platform_server !== 'string') doc.platform_server = hostname();
    if (!Array.isArray(doc.rules)) doc.rules = [];
    if (typeof doc.last_error !== 'string') doc.last_error = '';
    doc._owner = typeof prev?._owner === 'string' ? prev._owner : ctx.user.name;
  },
};

function searchHeadId(ctx: Ctx): string {
  let id = ctx.store.state.get('search-head-id') as string | undefined;
  if (!id) {
    id = randomUUID().toUpperCase();
    ctx.store.state.set('search-head-id', id);
  }
  return id;
}

// ---------- routers ----------

function kvRouter(ctx: Ctx, seg: string[], spec: KindSpec): Reply {
  const [a, b] = seg;
  if (a === 'get_supported_object_types' && seg.length === 1) return byMethod(ctx, { GET: () => ok([spec.type]) });
  if (a !== spec.type) throw unknownPath(a === undefined ? undefined : `Unsupported object type "${a}"`);
  if (seg.length === 1) {
    return byMethod(ctx, {
      GET: () => listObjects(ctx, spec),
      POST: () => createObject(ctx, spec),
      DELETE: () => deleteByFilter(ctx, spec),
    });
  }
  if (seg.length === 2) {
    if (b === 'count') return byMethod(ctx, { GET: () => countObjects(ctx, spec) });
    return byMethod(ctx, {
      GET: () => getObject(ctx, spec, b),
      POST: () => updateObject(ctx, spec, b),
      DELETE: () => deleteObject(ctx, spec, b),
    });
  }
  throw unknownPath();
}

export const handleMaintenance = (ctx: Ctx, seg: string[]) => kvRouter(ctx, seg, maintenanceSpec);
export const handleBackup = (ctx: Ctx, seg: string[]) => kvRouter(ctx, seg, backupSpec);

// ---------- seeds ----------

export function seedMaintenanceAndBackup(ctx: Ctx, restrictedGroup: string, serviceKeys: string[]): void {
  const now = Math.floor(Date.now() / 1000);
  const put = (spec: KindSpec, body: Doc, key = ctx.store.newKey()) =>
    commit(ctx, spec, [buildWrite(ctx, spec, key, body, undefined, 'create')]);
  put(maintenanceSpec, {
    title: 'Weekly patching window',
    start_time: now + 86400,
    end_time: now + 86400 + 7200,
    objects: serviceKeys.slice(0, 1).map((k) => ({ object_type: 'service', _key: k })),
  });
  put(maintenanceSpec, {
    title: 'Payments datacenter move',
    start_time: now + 3 * 86400,
    end_time: now + 3 * 86400 + 14400,
    sec_grp: restrictedGroup,
    objects: [],
  });
  put(
    backupSpec,
    {
      title: 'Default Scheduled Backup',
      description: 'Daily backup of the product configuration, created at installation',
      job_type: 'Backup',
      status: 'Completed',
      scheduled: 1,
      frequency: 'daily',
      scheduled_time: '01:00',
      start_time: now - 3600,
      end_time: now - 3500,
      last_queued_time: now - 3600,
    },
    DEFAULT_BACKUP_KEY,
  );
  put(backupSpec, { title: 'Before upgrade', job_type: 'Backup', status: 'Completed', start_time: now - 7200, end_time: now - 7100 });
  put(backupSpec, { title: 'Payments team export', job_type: 'Backup', status: 'Completed', sec_grp: restrictedGroup });
}
