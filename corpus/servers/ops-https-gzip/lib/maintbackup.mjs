// Maintenance windows (maintenance_services_interface) and backup/restore jobs (backup_restore_interface).
import { GLOBAL_TEAM, bad, notFound, notAllowed, isObj, isStr, isStrArray, boolParam, newKey } from './util.mjs';
import { Collection, db } from './store.mjs';
import { EMPTY } from './http.mjs';

const num = (v) => typeof v === 'number' && Number.isFinite(v);

export const maintenance = new Collection({
  name: 'maintenance_calendar',
  required: ['title', 'start_time', 'end_time'],
  schemaFields: ['start_time', 'end_time', 'objects', 'sec_grp_list', 'comment'],
  extraServer: ['can_edit'],
  teamsOf: (o) => [o.sec_grp || GLOBAL_TEAM, ...(Array.isArray(o.sec_grp_list) ? o.sec_grp_list : [])],
  validate(o) {
    for (const f of ['start_time', 'end_time'])
      if (o[f] !== undefined && !num(o[f])) throw bad(`Field "${f}" must be epoch seconds (a number)`);
    if (num(o.start_time) && num(o.end_time) && o.end_time <= o.start_time) throw bad('end_time must be after start_time');
    if (o.comment !== undefined && !isStr(o.comment)) throw bad('Field "comment" must be a string');
    if (o.objects !== undefined) {
      if (!Array.isArray(o.objects)) throw bad('Field "objects" must be an array of {object_type, _key}');
      for (const it of o.objects) {
        if (!isObj(it) || (it.object_type !== 'service' && it.object_type !== 'entity') || !isStr(it._key)) {
          throw bad('Each entry of "objects" must be {object_type: "service" or "entity", _key}');
        }
        if (!db[it.object_type].map.has(it._key)) throw bad(`Unknown ${it.object_type} "${it._key}" in objects`);
      }
    }
    if (o.sec_grp_list !== undefined) {
      if (!isStrArray(o.sec_grp_list)) throw bad('Field "sec_grp_list" must be an array of strings');
      for (const t of o.sec_grp_list) if (!db.team.map.has(t)) throw bad(`Unknown team "${t}" in sec_grp_list`);
    }
  },
  normalize(o) {
    if (!Array.isArray(o.objects)) o.objects = [];
    o.objects = o.objects.map((it) => ({ object_type: it.object_type, _key: it._key }));
    if (!Array.isArray(o.sec_grp_list)) o.sec_grp_list = [o.sec_grp || GLOBAL_TEAM];
  },
  decorate(o, ctx, raw) {
    o.can_edit = maintenance.writable(ctx, raw);
    return o;
  },
});

export const BACKUP_JOB_TYPES = ['Backup', 'Restore'];
export const BACKUP_STATUSES = ['Queued', 'In Progress', 'Completed', 'Failed'];
export const backups = new Collection({
  name: 'backup_restore',
  createTime: 'space',
  schemaFields: [
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
  ],
  extraServer: ['is_default'],
  validate(o) {
    if (o.job_type !== undefined && !BACKUP_JOB_TYPES.includes(o.job_type))
      throw bad(`Field "job_type" must be one of ${BACKUP_JOB_TYPES.join(', ')}`);
    if (o.status !== undefined && !BACKUP_STATUSES.includes(o.status))
      throw bad(`Field "status" must be one of ${BACKUP_STATUSES.join(', ')}`);
    for (const f of ['start_time', 'end_time', 'last_queued_time'])
      if (o[f] !== undefined && o[f] !== null && !num(o[f])) throw bad(`Field "${f}" must be epoch seconds (a number)`);
    for (const f of ['path', 'search_head_id', 'platform_server', 'last_error'])
      if (o[f] !== undefined && !isStr(o[f])) throw bad(`Field "${f}" must be a string`);
    if (o.rules !== undefined && !Array.isArray(o.rules)) throw bad('Field "rules" must be an array');
  },
  normalize(o, _ctx, old) {
    if (o.job_type === undefined) o.job_type = 'Backup';
    if (o.status === undefined) o.status = 'Queued';
    if (!Array.isArray(o.rules)) o.rules = [];
    if (o.last_error === undefined) o.last_error = '';
    if (o.platform_server === undefined) o.platform_server = 'localhost';
    if (o.search_head_id === undefined) o.search_head_id = '6F2A4E0C-1B7D-4C55-9E3A-OPS0SH000001';
    if (!o._key) o._key = newKey();
    if (o.path === undefined) o.path = `$PLATFORM_HOME/var/ops/backups/${o._key}`;
    if (old?.is_default) o.is_default = true;
  },
  undeletable(o, ctx, mode) {
    if (!o.is_default) return null;
    if (mode === 'bulk' && ctx.bug('default_backup_deletable')) return null;
    return 'The default scheduled backup cannot be deleted';
  },
});

// generic interface routing for maintenance & backup (segs after the interface segment)
export function kvInterfaceRoutes(ctx, method, segs, q, types, { supportedTypesRoute }) {
  const [a, b] = segs;
  if (supportedTypesRoute && a === 'get_supported_object_types' && segs.length === 1) {
    if (method !== 'GET') throw notAllowed(['GET']);
    return [...types];
  }
  if (!types.includes(a)) throw notFound(`Unknown object type "${a || ''}"`);
  const coll = db[a];
  if (segs.length === 1) {
    if (method === 'GET') return coll.list(ctx, q);
    if (method === 'POST') return coll.create(ctx, ctx.json());
    if (method === 'DELETE') {
      coll.bulkRemove(ctx, q);
      return EMPTY;
    }
    throw notAllowed(['GET', 'POST', 'DELETE']);
  }
  if (segs.length === 2 && b === 'count') {
    if (method !== 'GET') throw notAllowed(['GET']);
    return coll.count(ctx, q);
  }
  if (segs.length === 2) {
    if (method === 'GET') return coll.out(ctx, coll.get(ctx, b));
    if (method === 'POST') return coll.update(ctx, b, ctx.json(), boolParam(q, 'is_partial_data', false));
    if (method === 'DELETE') {
      coll.remove(ctx, b);
      return EMPTY;
    }
    throw notAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound(`Unknown path ${segs.join('/')}`);
}
