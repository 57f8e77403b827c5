// Maintenance windows (maintenance_services_interface).
import {
  GLOBAL,
  bad,
  invalid,
  notFound,
  forbidden,
  methodNotAllowed,
  isObj,
  clone,
  deepMerge,
  boolParam,
  hexKey,
  nowEpoch,
  lastParam,
} from './util.mjs';
import { db, stamp, teamOf } from './store.mjs';
import { canReadAll, canWriteAll } from './auth.mjs';
import { sharedQuery, select, project, filterPredicate } from './query.mjs';
import { bug } from './bugs.mjs';

const TYPE = 'maintenance_calendar';
const OMR = 'operative_maintenance_record';

function toNumber(v, name) {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw invalid(`${name} must be a number of epoch seconds`, 'INVALID_FIELD');
}

// Validates a whole window and computes sec_grp_list. Mutates obj.
function validateWindow(obj) {
  if (typeof obj.title !== 'string' || !obj.title) throw invalid('Required field "title" is missing', 'MISSING_REQUIRED_FIELD');
  if (obj.start_time === undefined) throw invalid('Required field "start_time" is missing', 'MISSING_REQUIRED_FIELD');
  if (obj.end_time === undefined) throw invalid('Required field "end_time" is missing', 'MISSING_REQUIRED_FIELD');
  obj.start_time = toNumber(obj.start_time, 'start_time');
  obj.end_time = toNumber(obj.end_time, 'end_time');
  if (obj.end_time <= obj.start_time) throw invalid('end_time must be later than start_time', 'INVALID_TIME_RANGE');
  if (obj.objects === undefined) obj.objects = [];
  if (!Array.isArray(obj.objects)) throw invalid('objects must be an array', 'INVALID_FIELD');
  for (const o of obj.objects) {
    if (!isObj(o) || (o.object_type !== 'service' && o.object_type !== 'entity') || typeof o._key !== 'string' || !o._key) {
      throw invalid("objects entries must be {object_type: 'service' or 'entity', _key: string}", 'INVALID_FIELD');
    }
  }
  const teams = new Set();
  if (obj.sec_grp_list !== undefined) {
    if (!Array.isArray(obj.sec_grp_list) || !obj.sec_grp_list.every((t) => typeof t === 'string'))
      throw invalid('sec_grp_list must be an array of strings', 'INVALID_FIELD');
    for (const t of obj.sec_grp_list) teams.add(t);
  }
  for (const o of obj.objects) {
    const target = db.core[o.object_type].get(o._key);
    if (target) teams.add(teamOf(target));
  }
  if (teams.size === 0) teams.add(GLOBAL);
  for (const t of teams) if (t !== GLOBAL && !db.core.team.has(t)) throw invalid(`sec_grp_list names unknown team ${t}`, 'UNKNOWN_TEAM');
  obj.sec_grp_list = [...teams];
  obj.sec_grp = obj.sec_grp_list[0];
}

const readableW = (user, w) => canReadAll(user, w.sec_grp_list || [GLOBAL]);
const writableW = (user, w) => canWriteAll(user, w.sec_grp_list || [GLOBAL]);

function present(w, user) {
  const o = clone(w);
  o.can_edit = writableW(user, w);
  return o;
}

function operativeRecords(user) {
  const now = nowEpoch();
  const out = [];
  for (const w of db.maint.values()) {
    if (!readableW(user, w) || !(w.start_time <= now && now < w.end_time)) continue;
    for (const o of w.objects || []) {
      out.push({
        _key: `${w._key}-${o._key}`,
        object_type: OMR,
        _version: w._version,
        maintenance_object_type: o.object_type,
        maintenance_object_key: o._key,
        maintenance_calendar_key: w._key,
        start_time: w.start_time,
        end_time: w.end_time,
      });
    }
  }
  return out;
}

export function handleMaint(ctx) {
  const { segs, method, q, user } = ctx;
  const [a, b] = segs;
  if (!a) throw notFound('No such endpoint');
  if (a === 'get_supported_object_types' && segs.length === 1) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    return ctx.reply(200, [TYPE, OMR]);
  }
  if (a === OMR) {
    if (method !== 'GET') throw methodNotAllowed(['GET'], 'operative_maintenance_record is read-only');
    const rows = operativeRecords(user);
    if (segs.length === 1) {
      const sq = sharedQuery(q);
      return ctx.reply(
        200,
        select(rows, sq).map((r) => project(r, sq.fields)),
      );
    }
    if (b === 'count' && segs.length === 2) return ctx.reply(200, { count: rows.filter(filterPredicate(lastParam(q, 'filter'))).length });
    const r = rows.find((x) => x._key === b);
    if (!r || segs.length !== 2) throw notFound(`No ${OMR} with _key ${b}`);
    return ctx.reply(200, r);
  }
  if (a !== TYPE) throw bad(`(400, 'Unsupported object type: ${String(a).slice(0, 80)}')`, 'UNSUPPORTED_OBJECT_TYPE');
  const readableRows = () => [...db.maint.values()].reverse().filter((w) => readableW(user, w));
  if (segs.length === 1) {
    if (method === 'GET') {
      const sq = sharedQuery(q);
      return ctx.reply(
        200,
        select(readableRows(), sq).map((w) => project(present(w, user), sq.fields)),
      );
    }
    if (method === 'POST') {
      const body = ctx.json();
      if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
      if (typeof body._key === 'string' && db.maint.has(body._key)) {
        update(ctx, body._key, body, false);
        return ctx.reply(200, { _key: body._key });
      }
      const w = clone(body);
      if (w._key !== undefined && (typeof w._key !== 'string' || !w._key))
        throw invalid('_key must be a non-empty string', 'INVALID_FIELD');
      if (!w._key) w._key = hexKey();
      validateWindow(w);
      if (!writableW(user, w)) throw forbidden(`User ${user.name} cannot write every team of this window (${w.sec_grp_list.join(', ')})`);
      w._owner = user.name;
      stamp(w, TYPE, user);
      db.maint.set(w._key, w);
      return ctx.reply(201, { _key: w._key });
    }
    if (method === 'DELETE') {
      const sq = sharedQuery(q);
      for (const w of select(
        readableRows().filter((w) => writableW(user, w)),
        sq,
      ))
        db.maint.delete(w._key);
      return ctx.reply(200, null);
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (b === 'count' && segs.length === 2) {
    if (method !== 'GET') throw methodNotAllowed(['GET']);
    const pred = filterPredicate(lastParam(q, 'filter'));
    const rows = bug('maint_count_all') ? [...db.maint.values()] : readableRows();
    return ctx.reply(200, { count: rows.filter(pred).length });
  }
  if (segs.length !== 2) throw notFound('No such endpoint');
  const key = b;
  const w = db.maint.get(key);
  if (method === 'GET') {
    if (!w || !readableW(user, w)) throw notFound(`No maintenance window with _key ${key}`);
    return ctx.reply(200, present(w, user));
  }
  if (method === 'POST') {
    const partial = boolParam(q, 'is_partial_data', false);
    update(ctx, key, ctx.json(), partial);
    return ctx.reply(200, { _key: key });
  }
  if (method === 'DELETE') {
    if (!w || !readableW(user, w)) throw notFound(`No maintenance window with _key ${key}`);
    if (!writableW(user, w)) throw forbidden(`User ${user.name} cannot delete this maintenance window`);
    db.maint.delete(key);
    return ctx.reply(200, null);
  }
  throw methodNotAllowed(['GET', 'POST', 'DELETE']);
}

function update(ctx, key, body, partial) {
  const { user } = ctx;
  const w = db.maint.get(key);
  if (!w || !readableW(user, w)) throw notFound(`No maintenance window with _key ${key}`);
  if (!writableW(user, w)) throw forbidden(`User ${user.name} cannot change this maintenance window`);
  if (!isObj(body)) throw bad('Payload must be a JSON object', 'INVALID_PAYLOAD');
  let n;
  if (partial) {
    n = clone(w);
    const p = clone(body);
    delete p._key;
    // sec_grp_list is recomputed from the objects unless the patch names it
    if (p.sec_grp_list === undefined && p.objects !== undefined) delete n.sec_grp_list;
    deepMerge(n, p);
    if (Array.isArray(p.objects)) n.objects = clone(p.objects);
  } else {
    n = clone(body);
    n._key = key;
  }
  validateWindow(n);
  if (!writableW(user, n)) throw forbidden(`User ${user.name} cannot write every team of this window (${n.sec_grp_list.join(', ')})`);
  n._owner = w._owner;
  stamp(n, TYPE, user);
  db.maint.set(key, n);
}
