// maintenance_services_interface and backup_restore_interface.
import { notFound, bug } from './util.mjs';
import { bool10Param } from './query.mjs';
import { decorate } from './types.mjs';
import { createObject, updateObject, deleteOne, listObjects, countObjects, bulkDelete, loadReadable } from './crud.mjs';
import { route, J, EMPTY } from './route.mjs';

function simpleInterface(ctx, segs, type) {
  const [a, b] = segs;
  if (a !== type) throw notFound(`Unknown object type: ${a}`);
  if (segs.length === 1) {
    return route(ctx, {
      GET: () => J(listObjects(ctx, type)),
      POST: () => J({ _key: createObject(ctx, type, ctx.body())._key }),
      DELETE: () => {
        bulkDelete(ctx, type);
        return EMPTY;
      },
    });
  }
  if (segs.length === 2 && b === 'count') {
    return route(ctx, {
      GET: () => J({ count: countObjects(ctx, type, { ignoreAccess: type === 'maintenance_calendar' && bug('mw_count_all') }) }),
    });
  }
  if (segs.length === 2) {
    return route(ctx, {
      GET: () => J(decorate(type, loadReadable(ctx, type, b), ctx)),
      POST: () => {
        const partial = bool10Param(ctx.query, 'is_partial_data');
        return J({ _key: updateObject(ctx, type, b, ctx.body(), partial === 1)._key });
      },
      DELETE: () => {
        deleteOne(ctx, type, b);
        return EMPTY;
      },
    });
  }
  throw notFound('Unknown endpoint');
}

export function handleMaintenance(ctx, segs) {
  if (segs.length === 1 && segs[0] === 'get_supported_object_types') {
    return route(ctx, { GET: () => J(['maintenance_calendar']) });
  }
  if (segs.length === 0) throw notFound('Unknown endpoint');
  return simpleInterface(ctx, segs, 'maintenance_calendar');
}

export function handleBackup(ctx, segs) {
  if (segs.length === 0) throw notFound('Unknown endpoint');
  return simpleInterface(ctx, segs, 'backup_restore');
}
