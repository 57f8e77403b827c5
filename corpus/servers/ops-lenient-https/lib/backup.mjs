// backup_restore_interface: backup and restore jobs; the default scheduled backup stays.
import { canReadTeam, canWriteAtAll, GLOBAL_TEAM } from './auth.mjs';
import { bug } from './bugs.mjs';
import { notFound } from './http.mjs';
import { handleSimple } from './simple.mjs';
import { collection } from './store.mjs';
import { epoch, plainTime } from './time.mjs';

const DEFAULT_BACKUP = 'default_scheduled_backup';

const team = (row) => (typeof row.sec_grp === 'string' && row.sec_grp ? row.sec_grp : GLOBAL_TEAM);

const backupKind = {
  type: 'backup_restore',
  coll: collection('backup', 'backup_restore'),
  schema: 'backup_restore',
  createTime: () => plainTime(),
  readable: (user, row) => row._owner === user.name || canReadTeam(user, team(row)),
  writable: (user, row) => canWriteAtAll(user) && (row._owner === user.name || canReadTeam(user, team(row))),
  prepare: (row, user, old) => {
    if (!old) {
      row._owner = user.name;
      if (row.status === undefined) row.status = 'Queued';
      if (row.job_type === undefined) row.job_type = 'Backup';
      if (row.last_queued_time === undefined) row.last_queued_time = epoch();
      if (row.search_head_id === undefined) row.search_head_id = 'sh-lenient-01';
      if (row.platform_server === undefined) row.platform_server = 'ops-sh-01.example.com';
      if (row.rules === undefined) row.rules = [];
      if (row.last_error === undefined) row.last_error = '';
    }
    if (row.sec_grp === undefined) row.sec_grp = old?.sec_grp ?? GLOBAL_TEAM;
  },
  protect: (row) =>
    row._key === DEFAULT_BACKUP && !bug('default-backup-deletable') ? 'the default scheduled backup cannot be deleted' : null,
};

export function handleBackup(ctx) {
  const [type, ...rest] = ctx.segs;
  if (type === 'get_supported_object_types' && rest.length === 0 && ctx.method === 'GET') return { status: 200, body: ['backup_restore'] };
  if (type !== 'backup_restore') throw notFound(`object type ${type}`);
  return handleSimple(backupKind, ctx, rest, 'backup-count-ignores-access');
}
