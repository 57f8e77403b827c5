import type { Route } from '../http/router';
import { spacedTime } from './clock';
import type { Doc } from './config';
import type { OpsCtx, OpsRouteFn } from './context';
import { crudRoutes } from './crud-routes';
import { BACKUP_TYPE } from './object-types';
import type { TypeRules } from './objects';
import { BACKUP } from './paths';

function prepareJob(doc: Doc, previous: Doc | undefined, ctx: OpsCtx): string | undefined {
  if (previous === undefined) {
    const now = ctx.state.clock.now();
    doc.job_type ??= 'Backup';
    doc.status ??= 'Queued';
    doc.create_time ??= spacedTime(now * 1000);
    doc.last_queued_time ??= Math.floor(now / 1000);
    doc.last_error ??= 'None';
  }
  if (typeof doc.job_type !== 'string') return 'job_type must be a string';
  if (typeof doc.status !== 'string') return 'status must be a string';
  if (doc.rules !== undefined && !Array.isArray(doc.rules)) return 'rules must be an array';
  return undefined;
}

const RULES: TypeRules = {
  type: BACKUP_TYPE,
  required: ['title'],
  flavor: 'core',
  prepare: prepareJob,
  undeletable: (doc, ctx) =>
    doc._key === ctx.state.config.defaultBackupKey ? 'The default scheduled backup cannot be deleted' : undefined,
};

export const backupRoutes: Route<OpsRouteFn>[] = crudRoutes(BACKUP, [RULES]);
