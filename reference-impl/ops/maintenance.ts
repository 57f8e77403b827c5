import type { Route } from '../http/router';
import type { Doc } from './config';
import type { OpsRouteFn } from './context';
import { crudRoutes } from './crud-routes';
import { isPlainObject } from './input';
import { MAINTENANCE_TYPE } from './object-types';
import type { TypeRules } from './objects';
import { MAINTENANCE } from './paths';

const isEpochSeconds = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

/** `"1700000000"` as 1700000000: scripts send epoch seconds as strings; the document's field is a number. */
function numericString(v: unknown): unknown {
  return typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
}

function prepareWindow(doc: Doc): string | undefined {
  for (const field of ['start_time', 'end_time']) {
    if (doc[field] !== undefined) doc[field] = numericString(doc[field]);
    if (doc[field] !== undefined && !isEpochSeconds(doc[field])) return `${field} must be epoch seconds (a number)`;
  }
  if (isEpochSeconds(doc.start_time) && isEpochSeconds(doc.end_time) && (doc.end_time as number) < (doc.start_time as number)) {
    return 'end_time must not be before start_time';
  }
  if (doc.objects !== undefined) {
    if (!Array.isArray(doc.objects)) return 'objects must be an array of {object_type, _key}';
    for (const [i, o] of doc.objects.entries()) {
      if (!isPlainObject(o) || (o.object_type !== 'service' && o.object_type !== 'entity') || typeof o._key !== 'string') {
        return `objects[${i}] must be {object_type: "service" or "entity", _key: string}`;
      }
    }
  }
  // Access to a window follows its sec_grp_list; a window written without one belongs to its sec_grp.
  if (!Array.isArray(doc.sec_grp_list)) doc.sec_grp_list = [doc.sec_grp];
  return undefined;
}

/**
 * Windows upsert: an update of a key that does not exist yet creates the window under that key, as the ITSI
 * Toolbox's `mwcal mode=upsert` expects of `POST maintenance_calendar/<key>` (the document leaves that case open).
 */
const RULES: TypeRules = { type: MAINTENANCE_TYPE, required: ['title'], flavor: 'core', prepare: prepareWindow, upsert: true };

export const maintenanceRoutes: Route<OpsRouteFn>[] = crudRoutes(MAINTENANCE, [RULES]);
