// Maintenance windows (maintenance_services_interface) and backup/restore jobs (backup_restore_interface).
import { coll } from './store.mjs';
import { bad, notFound, conflict, isObj, byMethod, epochSec, GLOBAL_TEAM } from './util.mjs';
import {
  register,
  handleList,
  handleCount,
  handleCreate,
  handleUpdate,
  handleGet,
  handleDeleteOne,
  handleBulkDelete,
  writable,
} from './crud.mjs';
import { validateTeamList, registerTeamUsage } from './core.mjs';
import { parseFilter } from './query.mjs';
import { bugs } from './bugs.mjs';

const num = (v) => typeof v === 'number' && Number.isFinite(v);

export const MAINT = register({
  name: 'maintenance_calendar',
  teamMode: 'sec_grp_list',
  required: ['title', 'start_time', 'end_time'],
  serverOwned: ['can_edit'],
  normalize(doc, _ctx, old, _mode, clean) {
    for (const f of ['start_time', 'end_time']) if (!num(doc[f]) || doc[f] < 0) throw bad(`Field '${f}' must be epoch seconds (a number)`);
    if (doc.end_time < doc.start_time) throw bad(`Field 'end_time' must not be before 'start_time'`);
    if (doc.objects === undefined || doc.objects === null) doc.objects = [];
    if (!Array.isArray(doc.objects)) throw bad(`Field 'objects' must be an array of {object_type, _key}`);
    doc.objects.forEach((o, i) => {
      if (!isObj(o) || !['service', 'entity'].includes(o.object_type) || typeof o._key !== 'string' || !o._key)
        throw bad(`objects[${i}] must be {object_type: 'service' or 'entity', _key: string}`);
    });
    if (doc.comment !== undefined && typeof doc.comment !== 'string') throw bad(`Field 'comment' must be a string`);
    if (clean.sec_grp_list === undefined) {
      const teams = new Set();
      for (const o of doc.objects) {
        const ref = coll(o.object_type).get(o._key);
        if (ref && typeof ref.sec_grp === 'string') teams.add(ref.sec_grp);
      }
      doc.sec_grp_list = teams.size ? [...teams] : (old?.sec_grp_list ?? [clean.sec_grp ?? GLOBAL_TEAM]);
    }
    validateTeamList(doc.sec_grp_list);
    if (clean.sec_grp === undefined || !doc.sec_grp_list.includes(doc.sec_grp)) doc.sec_grp = doc.sec_grp_list[0];
  },
  view(v, ctx, raw) {
    v.can_edit = writable(MAINT, raw, ctx.user);
    return v;
  },
});

const JOB_TYPES = ['Backup', 'Restore'];
const JOB_STATUSES = ['Queued', 'In Progress', 'Completed', 'Failed'];
export const BACKUP = register({
  name: 'backup_restore',
  teamMode: 'sec_grp',
  required: ['title'],
  createTime: 'plain',
  serverOwned: ['last_queued_time', 'search_head_id', 'platform_server', 'default_scheduled_backup'],
  normalize(doc, _ctx, old) {
    if (doc.job_type === undefined) doc.job_type = 'Backup';
    if (!JOB_TYPES.includes(doc.job_type)) throw bad(`Field 'job_type' must be one of ${JOB_TYPES.join(', ')}`);
    if (doc.status === undefined) doc.status = old?.status ?? 'Queued';
    if (!JOB_STATUSES.includes(doc.status)) throw bad(`Field 'status' must be one of ${JOB_STATUSES.join(', ')}`);
    for (const f of ['start_time', 'end_time']) {
      if (doc[f] === undefined || doc[f] === null) doc[f] = 0; // 0 = not started / not finished yet
      if (!num(doc[f]) || doc[f] < 0) throw bad(`Field '${f}' must be epoch seconds (a number)`);
    }
    if (doc.rules === undefined) doc.rules = [];
    if (!Array.isArray(doc.rules)) throw bad(`Field 'rules' must be an array`);
    if (doc.last_error === undefined) doc.last_error = '';
    if (typeof doc.last_error !== 'string') throw bad(`Field 'last_error' must be a string`);
    if (doc.path !== undefined && typeof doc.path !== 'string') throw bad(`Field 'path' must be a string`);
    doc.search_head_id = old?.search_head_id ?? 'sh-7f3c2a91-ops-01';
    doc.platform_server = old?.platform_server ?? 'ops-sh01.example.internal';
    if (doc.status === 'Queued' && old?.status !== 'Queued') doc.last_queued_time = epochSec();
    else if (old?.last_queued_time !== undefined) doc.last_queued_time = old.last_queued_time;
    else doc.last_queued_time = epochSec();
  },
  afterWrite(doc) {
    if (doc.path === undefined || doc.path === '') doc.path = `/opt/platform/var/ops/backups/${doc._key}/backup.zip`;
  },
  canDelete(doc, _ctx, bulk) {
    if (doc.default_scheduled_backup && (bulk || !bugs.has('default-backup-deletable')))
      throw conflict('The default scheduled backup job cannot be deleted');
  },
});

registerTeamUsage(
  (team) =>
    coll('maintenance_calendar')
      .docs()
      .some((d) => (d.sec_grp_list || []).includes(team) || d.sec_grp === team) ||
    coll('backup_restore')
      .docs()
      .some((d) => d.sec_grp === team),
);

function crudRoutes(def, ctx, segs) {
  const [_a, b] = segs;
  if (segs.length === 1)
    return byMethod(ctx, { GET: () => handleList(def, ctx), POST: () => handleCreate(def, ctx), DELETE: () => handleBulkDelete(def, ctx) });
  if (segs.length === 2 && b === 'count') {
    if (def === MAINT && bugs.has('maint-count-ignores-access')) {
      return byMethod(ctx, {
        GET: () => {
          const f = parseFilter(ctx.params.get('filter'));
          const docs = coll(def.name).docs();
          return { count: f ? docs.filter((d) => f(d)).length : docs.length };
        },
      });
    }
    return byMethod(ctx, { GET: () => handleCount(def, ctx) });
  }
  if (segs.length === 2)
    return byMethod(ctx, {
      GET: () => handleGet(def, ctx, b),
      POST: () => handleUpdate(def, ctx, b),
      DELETE: () => handleDeleteOne(def, ctx, b),
    });
  throw notFound(`No such endpoint: ${segs.join('/')}`);
}

export function handleMaintenance(ctx, segs) {
  if (segs[0] === 'get_supported_object_types' && segs.length === 1) return byMethod(ctx, { GET: () => ['maintenance_calendar'] });
  if (segs[0] !== 'maintenance_calendar')
    throw notFound(`Unknown maintenance object type '${segs[0] ?? ''}'. Supported: maintenance_calendar`);
  return crudRoutes(MAINT, ctx, segs);
}
export function handleBackup(ctx, segs) {
  if (segs[0] !== 'backup_restore') throw notFound(`Unknown backup/restore object type '${segs[0] ?? ''}'. Supported: backup_restore`);
  return crudRoutes(BACKUP, ctx, segs);
}
registerTeamUsage((team) =>
  ['correlation_search', 'notable_aggregation_policy'].some((t) =>
    coll(t)
      .docs()
      .some((d) => d.sec_grp === team),
  ),
);
