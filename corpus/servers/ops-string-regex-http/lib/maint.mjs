// maintenance_services_interface, backup_restore_interface and the glass table icon collection.
import { GLOBAL_TEAM, HttpError, bad, notFound, forbidden, isObj, clone, epochInt, hex, errorBody } from './util.mjs';
import * as db from './store.mjs';
import { canReadTeam, canWriteTeam, requireWriter } from './auth.mjs';
import { parseListParams, selectRows, project, lastParam } from './query.mjs';
import { genericRoutes } from './core.mjs';

const mna = (allow) => new HttpError(405, `Method not allowed; use ${allow.join(', ')}`, { Allow: allow.join(', ') });
export const MAINT_TYPES = ['maintenance_calendar', 'operative_maintenance_log'];

export function handleMaintenance(ctx, method, segs, q) {
  if (segs.length === 1 && segs[0] === 'get_supported_object_types') {
    if (method !== 'GET') throw mna(['GET']);
    return { status: 200, json: [...MAINT_TYPES] };
  }
  if (!segs.length || !MAINT_TYPES.includes(segs[0])) throw notFound(`Unknown maintenance object type "${segs[0] || ''}"`);
  const r = genericRoutes(ctx, `maint:${segs[0]}`, method, segs.slice(1), q);
  if (r) return r;
  throw notFound('Unknown maintenance path');
}

// Jobs left Queued for a few seconds are run and become Completed.
function tickBackups() {
  const now = Date.now();
  for (const j of db.coll('backup:backup_restore').values()) {
    if (j.status === 'Queued' && typeof j.last_queued_time === 'number' && now / 1000 - j.last_queued_time >= 3) {
      j.status = 'Completed';
      j.start_time = j.last_queued_time + 1;
      j.end_time = epochInt(now);
      if (j.job_type === 'Backup' && !j.path) j.path = `/opt/platform/var/ops/backups/${j._key}/backup.zip`;
    }
  }
}

export function handleBackup(ctx, method, segs, q) {
  tickBackups();
  if (!segs.length || segs[0] !== 'backup_restore') throw notFound(`Unknown backup object type "${segs[0] || ''}"`);
  const r = genericRoutes(ctx, 'backup:backup_restore', method, segs.slice(1), q);
  if (r) return r;
  throw notFound('Unknown backup path');
}

// ---------- icons ----------
const ICONS = 'icons:icon';
const categories = new Map(); // name -> {name, immutable?}
export function addCategory(name, immutable) {
  categories.set(name, immutable ? { name, immutable: 1 } : { name });
}
const canSeeIcons = (ctx) => canReadTeam(ctx.user, GLOBAL_TEAM);

function categoryList() {
  const names = new Set([...categories.keys()]);
  for (const i of db.coll(ICONS).values()) names.add(i.category);
  const fixed = [...names].filter((n) => categories.get(n)?.immutable).sort();
  const other = [...names].filter((n) => !categories.get(n)?.immutable).sort((a, b) => a.localeCompare(b));
  return [...fixed, ...other].map((n) => clone(categories.get(n) || { name: n }));
}

function normIcon(o, i) {
  if (!isObj(o)) throw bad(`Icon ${i} is not an object`);
  for (const f of ['title', 'svg_path', 'default_width', 'default_height', 'category']) {
    if (!(f in o)) throw bad(`Icon ${i} lacks "${f}"`);
  }
  for (const f of ['title', 'svg_path', 'category']) if (typeof o[f] !== 'string') throw bad(`Icon ${i}: ${f} must be a string`);
  const out = { ...clone(o), object_type: 'icon' };
  for (const f of ['default_width', 'default_height']) {
    const v = o[f];
    if (typeof v === 'number' && Number.isFinite(v)) out[f] = String(v);
    else if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) out[f] = v.trim();
    else throw bad(`Icon ${i}: ${f} must be a number or numeric string`);
  }
  if (out._key !== undefined && (typeof out._key !== 'string' || !/^[A-Za-z0-9_\-.]{1,120}$/.test(out._key)))
    throw bad(`Icon ${i}: bad _key`);
  return out;
}

export function handleIcons(ctx, method, segs, q) {
  if (segs.length === 0) {
    if (method === 'GET') {
      const lc = lastParam(q, 'list_categories');
      const p = parseListParams(q);
      if (lc !== undefined && ['1', 'true', 'True'].includes(lc)) {
        const cats = canSeeIcons(ctx) ? categoryList() : [];
        return { status: 200, json: selectRows(cats, p).map((c) => project(c, p.fields)) };
      }
      const visible = canSeeIcons(ctx) ? db.all(ICONS).map(clone) : [];
      const cat = lastParam(q, 'category');
      const rows = cat !== undefined && cat !== '' ? visible.filter((i) => i.category === cat) : visible;
      return { status: 200, json: { total: visible.length, result: selectRows(rows, p).map((i) => project(i, p.fields)) } };
    }
    if (method === 'POST' || method === 'PUT') {
      requireWriter(ctx.user);
      if (!canWriteTeam(ctx.user, GLOBAL_TEAM)) throw forbidden('Icons are stored in the Global team');
      const body = ctx.json();
      if (!Array.isArray(body)) throw bad('Payload must be an array of icon objects');
      const staged = body.map((o, i) => normIcon(o, i));
      const keys = [];
      for (const o of staged) {
        if (o._key === undefined) o._key = `icon_${hex(20)}`;
        db.put(ICONS, o);
        keys.push(o._key);
      }
      return { status: 200, json: keys };
    }
    if (method === 'DELETE') {
      requireWriter(ctx.user);
      if (!canWriteTeam(ctx.user, GLOBAL_TEAM)) throw forbidden('Icons are stored in the Global team');
      const cat = lastParam(q, 'category');
      if (cat === undefined || cat === '') throw bad('Parameter "category" is required (use * to delete all icons)');
      for (const i of db.all(ICONS)) if (cat === '*' || i.category === cat) db.remove(ICONS, i._key);
      return { status: 200, json: { Deleted: 'True' } };
    }
    throw mna(['GET', 'POST', 'PUT', 'DELETE']);
  }
  if (segs.length === 1) {
    const key = segs[0];
    const icon = db.get(ICONS, key);
    if (method === 'GET') {
      if (!icon || !canSeeIcons(ctx)) throw notFound(`Icon ${key} not found`);
      return { status: 200, json: clone(icon) };
    }
    if (method === 'DELETE') {
      requireWriter(ctx.user);
      if (!icon || !canSeeIcons(ctx)) return { status: 404, json: { Deleted: 'False', ...errorBody(404, `Icon ${key} not found`) } };
      if (!canWriteTeam(ctx.user, GLOBAL_TEAM)) throw forbidden('Icons are stored in the Global team');
      db.remove(ICONS, key);
      return { status: 200, json: { Deleted: 'True' } };
    }
    throw mna(['GET', 'DELETE']);
  }
  throw notFound('Unknown icon path');
}
