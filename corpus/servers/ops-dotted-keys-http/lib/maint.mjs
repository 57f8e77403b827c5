// Maintenance interface (maintenance_services_interface): maintenance windows.
import { bad, notFound, isObj, isStr, isNum, isStrArray, boolParam01, GLOBAL_TEAM } from './util.mjs';
import { coll, canRead, canWrite, canReadTeam, requireWriter } from './store.mjs';
import {
  listObjects,
  countObjects,
  getObject,
  createObject,
  replaceObject,
  deleteObject,
  bulkDelete,
  methodNotAllowed,
} from './objects.mjs';
import { bug } from './bugs.mjs';

const TYPE = 'maintenance_calendar';

function teamsOfObjects(objects) {
  const out = [];
  for (const o of objects || []) {
    const x = coll(o.object_type).get(o._key);
    const t = x && isStr(x.sec_grp) ? x.sec_grp : GLOBAL_TEAM;
    if (!out.includes(t)) out.push(t);
  }
  return out.length ? out : [GLOBAL_TEAM];
}

export const maintKind = {
  type: TYPE,
  prefix: 'mw',
  label: 'Maintenance window',
  required: ['title', 'start_time', 'end_time'],
  known: ['start_time', 'end_time', 'objects', 'sec_grp_list', 'comment', 'can_edit'],
  owner: (user) => user.name,
  validate(b, { user, prev }) {
    for (const f of ['start_time', 'end_time'])
      if (b[f] !== undefined && !isNum(b[f])) throw bad(`Field "${f}" must be a number (epoch seconds)`);
    const s = b.start_time !== undefined ? b.start_time : prev?.start_time;
    const e = b.end_time !== undefined ? b.end_time : prev?.end_time;
    if (isNum(s) && isNum(e) && e <= s) throw bad('end_time must be later than start_time');
    if (b.comment !== undefined && !isStr(b.comment)) throw bad('Field "comment" must be a string');
    if (b.sec_grp_list !== undefined && !isStrArray(b.sec_grp_list)) throw bad('Field "sec_grp_list" must be an array of strings');
    if (b.objects !== undefined) {
      if (!Array.isArray(b.objects)) throw bad('Field "objects" must be an array of {object_type, _key}');
      b.objects.forEach((o, i) => {
        if (!isObj(o) || !['service', 'entity'].includes(o.object_type) || !isStr(o._key) || !o._key)
          throw bad(`objects[${i}] must be {object_type: "service" or "entity", _key: string}`);
        const x = coll(o.object_type).get(o._key);
        if (!x || !canReadTeam(user, x.sec_grp || GLOBAL_TEAM)) throw bad(`objects[${i}]: ${o.object_type} "${o._key}" does not exist`);
      });
    }
  },
  defaults(obj) {
    if (!obj.objects) obj.objects = [];
    if (obj.comment === undefined) obj.comment = '';
  },
  targetTeams(obj) {
    return Array.isArray(obj.sec_grp_list) && obj.sec_grp_list.length ? obj.sec_grp_list : teamsOfObjects(obj.objects);
  },
  normalize(obj) {
    if (!Array.isArray(obj.sec_grp_list) || !obj.sec_grp_list.length) obj.sec_grp_list = teamsOfObjects(obj.objects);
    obj.objects = (obj.objects || []).map((o) => ({ object_type: o.object_type, _key: o._key }));
    obj.sec_grp = obj.sec_grp_list[0];
    delete obj.can_edit;
  },
  present(out, user, obj) {
    out.can_edit = canWrite(user, TYPE, obj);
    return out;
  },
};

export async function handleMaint(ctx, segs) {
  const m = ctx.method;
  const [a, b] = segs;
  if (segs.length === 1 && a === 'get_supported_object_types') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return { body: [TYPE] };
  }
  if (a !== TYPE) throw notFound(a ? `Unknown maintenance object type "${a}"` : 'No object type in the path');
  const kind = maintKind;
  if (segs.length === 1) {
    if (m === 'GET') return { body: listObjects(kind, ctx) };
    if (m === 'POST') {
      requireWriter(ctx.user);
      const r = createObject(kind, ctx, await ctx.json(true));
      return { status: 201, body: { _key: r.key } };
    }
    if (m === 'DELETE') {
      bulkDelete(kind, ctx);
      return { status: 204 };
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  if (segs.length === 2 && b === 'count') {
    if (m !== 'GET') throw methodNotAllowed(['GET']);
    return { body: countObjects(kind, ctx, { ignoreAccess: bug('count_ignores_access') }) };
  }
  if (segs.length === 2) {
    if (m === 'GET') return { body: getObject(kind, ctx, b) };
    if (m === 'POST') {
      requireWriter(ctx.user);
      const partial = boolParam01(ctx.query, 'is_partial_data', false);
      return { body: { _key: replaceObject(kind, ctx, b, await ctx.json(true), partial) } };
    }
    if (m === 'DELETE') {
      deleteObject(kind, ctx, b);
      return { status: 204 };
    }
    throw methodNotAllowed(['GET', 'POST', 'DELETE']);
  }
  throw notFound('Unknown maintenance path');
}
void canRead;
