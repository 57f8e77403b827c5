// In-memory key-value collections with team based access and the generic CRUD operations.
import crypto from 'node:crypto';
import {
  SCHEMA_VERSION,
  GLOBAL_TEAM,
  bad,
  notFound,
  forbidden,
  conflict,
  clone,
  isObj,
  newKey,
  nowMicro,
  isoWithOffset,
  spaceMicroTime,
  spaceSecondTime,
  epochSeconds,
  boolParam,
} from './util.mjs';
import { canRead, canWrite, requireWriter } from './auth.mjs';
import { listing, compileFilter, sortItems, sortDirInt } from './query.mjs';
import { intParam } from './util.mjs';

// registry of every collection by name (filled by the modules that define them)
export const db = {};

export const SERVER_FIELDS = new Set([
  '_key',
  '_version',
  '_user',
  '_owner',
  '_etag',
  'mod_time',
  'mod_timestamp',
  'mod_source',
  'mod_by',
  'identifying_name',
  'create_time',
  'create_by',
  'create_source',
  '_type',
  'permissions',
]);
export const COMMON_FIELDS = ['title', 'description', 'sec_grp', 'object_type'];

export function etagOf(obj) {
  const rest = {};
  for (const [k, v] of Object.entries(obj)) if (k !== '_etag' && !k.startsWith('__')) rest[k] = v;
  return crypto.createHash('md5').update(JSON.stringify(rest)).digest('hex');
}

// Remove hidden bookkeeping fields (prefixed "__") from an output copy.
export function publicCopy(obj) {
  const out = {};
  for (const [k, v] of Object.entries(obj)) if (!k.startsWith('__')) out[k] = clone(v);
  return out;
}

export class Collection {
  constructor(cfg) {
    this.cfg = {
      required: ['title'],
      schemaFields: [],
      extraServer: [],
      createTime: 'epoch',
      modTime: 'epoch',
      teamsOf: (o) => [o.sec_grp || GLOBAL_TEAM],
      ...cfg,
    };
    this.name = cfg.name;
    this.objectType = cfg.objectType || cfg.name;
    this.map = new Map();
    this.schema = new Set([...COMMON_FIELDS, ...this.cfg.schemaFields]);
    db[this.name] = this;
  }

  all() {
    return [...this.map.values()];
  }
  raw(key) {
    return this.map.get(key);
  }

  readable(ctx, obj) {
    return this.cfg.teamsOf(obj).every((t) => canRead(ctx.user, t));
  }
  writable(ctx, obj) {
    const teams = this.cfg.writeTeamsOf ? this.cfg.writeTeamsOf(obj) : this.cfg.teamsOf(obj);
    return teams.every((t) => canWrite(ctx.user, t));
  }
  assertWritable(ctx, obj) {
    requireWriter(ctx.user);
    if (!this.writable(ctx, obj)) {
      const teams = this.cfg.writeTeamsOf ? this.cfg.writeTeamsOf(obj) : this.cfg.teamsOf(obj);
      throw forbidden(`User ${ctx.user.name} cannot write ${this.objectType} objects of team(s) ${teams.join(', ')}`);
    }
  }

  out(ctx, obj) {
    const o = publicCopy(obj);
    return this.cfg.decorate ? this.cfg.decorate(o, ctx, obj) : o;
  }

  // strip server-owned fields from a client payload, check object_type
  clean(body) {
    if (!isObj(body)) throw bad(`Payload must be a JSON object following the ${this.objectType} schema`);
    const o = {};
    for (const [k, v] of Object.entries(body)) {
      if (k === 'object_type') {
        if (v !== this.objectType) throw bad(`object_type must be "${this.objectType}"`);
        continue;
      }
      if (SERVER_FIELDS.has(k) || this.cfg.extraServer.includes(k) || k.startsWith('__')) continue;
      o[k] = v;
    }
    return o;
  }

  stamp(ctx, obj, old) {
    const micro = nowMicro();
    obj._key = obj._key || newKey();
    obj.object_type = this.objectType;
    obj._version = SCHEMA_VERSION;
    obj._user = 'nobody';
    obj._owner = old ? old._owner : ctx.user.name;
    obj.mod_source = 'REST';
    obj.mod_timestamp = isoWithOffset(micro);
    obj.mod_time = this.cfg.modTime === 'space' ? spaceMicroTime(micro) : epochSeconds(micro);
    if (old) {
      for (const k of ['create_time', 'create_by', 'create_source']) if (old[k] !== undefined) obj[k] = old[k];
      for (const [k, v] of Object.entries(old)) if (k.startsWith('__') && !(k in obj)) obj[k] = v;
    } else {
      obj.create_time =
        this.cfg.createTime === 'iso'
          ? isoWithOffset(micro)
          : this.cfg.createTime === 'space'
            ? spaceSecondTime(micro)
            : epochSeconds(micro);
      if (this.cfg.creatorFields) {
        obj.create_by = ctx.user.name;
        obj.create_source = 'REST';
      }
    }
    if (this.cfg.creatorFields) obj.mod_by = ctx.user.name;
    if (typeof obj.title === 'string') obj.identifying_name = obj.title.toLowerCase();
    else delete obj.identifying_name;
    if (this.cfg.stamp) this.cfg.stamp(obj, ctx, old, micro);
    obj._etag = etagOf(obj);
    return obj;
  }

  checkRequired(obj) {
    for (const f of this.cfg.required) {
      const v = obj[f];
      if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
        throw bad(`Missing required field "${f}" for ${this.objectType}`);
      }
    }
  }

  commonValidate(obj) {
    if (obj.title !== undefined && typeof obj.title !== 'string') throw bad('Field "title" must be a string');
    if (obj.description !== undefined && typeof obj.description !== 'string') throw bad('Field "description" must be a string');
    if (obj.sec_grp !== undefined) {
      if (typeof obj.sec_grp !== 'string' || !obj.sec_grp) throw bad('Field "sec_grp" must be a team key');
      if (db.team && !db.team.map.has(obj.sec_grp)) throw bad(`Unknown team "${obj.sec_grp}" in sec_grp`);
    }
  }

  // write a fully formed candidate (after merge), checking everything
  commit(ctx, candidate, old, { full }) {
    if (full) this.checkRequired(candidate);
    this.commonValidate(candidate);
    if (this.cfg.validate) this.cfg.validate(candidate, ctx, old);
    if (candidate.sec_grp === undefined && this.cfg.defaultTeam !== false) candidate.sec_grp = GLOBAL_TEAM;
    this.assertWritable(ctx, candidate);
    if (this.cfg.normalize) this.cfg.normalize(candidate, ctx, old);
    const stamped = this.stamp(ctx, candidate, old);
    this.map.set(stamped._key, stamped);
    if (this.cfg.afterWrite) this.cfg.afterWrite(stamped, ctx, old);
    return stamped;
  }

  // ---- operations ----
  list(ctx, q, opt) {
    const items = this.all()
      .filter((o) => this.readable(ctx, o))
      .map((o) => this.out(ctx, o));
    return listing(items, q, ctx, opt).rows;
  }

  count(ctx, q) {
    let items = this.all();
    if (!(this.name === 'maintenance_calendar' && ctx.bug('maint_count_all'))) items = items.filter((o) => this.readable(ctx, o));
    const pred = compileFilter(q.has('filter') ? q.get('filter') : undefined, ctx);
    items = items.filter((o) => pred(this.out(ctx, o)));
    return { count: items.length };
  }

  get(ctx, key) {
    const o = this.map.get(key);
    if (!o) throw notFound(`No ${this.objectType} object with _key "${key}"`);
    if (!this.readable(ctx, o)) throw forbidden(`User ${ctx.user.name} cannot read this ${this.objectType} object`);
    return o;
  }

  // POST <type>: create, or overwrite when the payload names an existing _key
  create(ctx, body) {
    requireWriter(ctx.user);
    if (!isObj(body)) throw bad(`Payload must be a JSON object following the ${this.objectType} schema`);
    const key = body._key;
    if (key !== undefined && (typeof key !== 'string' || !/^[A-Za-z0-9_.:@-]{1,128}$/.test(key))) {
      throw bad('Field "_key" must be a string of letters, digits, "_", "-", ".", ":" or "@"');
    }
    const old = key !== undefined ? this.map.get(key) : undefined;
    if (old) {
      if (!this.readable(ctx, old)) throw forbidden(`User ${ctx.user.name} cannot read this ${this.objectType} object`);
      this.assertWritable(ctx, old);
    }
    const cand = this.clean(body);
    if (key !== undefined) cand._key = key;
    const saved = this.commit(ctx, cand, old, { full: true });
    return { _key: saved._key };
  }

  partialMerge(old, body) {
    const cand = { ...clone(old) };
    const allowed = new Set([...this.schema, ...Object.keys(old)]);
    if (this.cfg.dynamicSchema) for (const f of this.cfg.dynamicSchema(old, body)) allowed.add(f);
    for (const [k, v] of Object.entries(body)) {
      if (!allowed.has(k)) continue; // partial writes only touch fields of the schema
      if (v === null && this.cfg.nullDeletes) delete cand[k];
      else cand[k] = v;
    }
    return cand;
  }

  update(ctx, key, body, partial) {
    requireWriter(ctx.user);
    const old = this.get(ctx, key);
    this.assertWritable(ctx, old);
    if (body && body._key !== undefined && body._key !== key) throw bad('Field "_key" in the payload does not match the path');
    const cleaned = this.clean(body);
    let cand;
    if (partial && !ctx.bug('partial_overwrites')) cand = this.partialMerge(old, cleaned);
    else {
      cand = cleaned;
      cand._key = key;
    }
    const full = !partial && !ctx.bug('full_update_no_title_check');
    const saved = this.commit(ctx, cand, old, { full });
    return { _key: saved._key };
  }

  bulkUpdate(ctx, body, partial) {
    requireWriter(ctx.user);
    if (!Array.isArray(body)) throw bad('Payload must be an array of objects, each with _key');
    // validate everything first; apply only when every element is acceptable
    const plans = body.map((el, i) => {
      if (!isObj(el)) throw bad(`Element ${i} is not an object`);
      if (typeof el._key !== 'string' || !el._key) throw bad(`Element ${i} has no _key`);
      const old = this.map.get(el._key);
      if (!old) throw notFound(`No ${this.objectType} object with _key "${el._key}" (element ${i})`);
      if (!this.readable(ctx, old)) throw forbidden(`User ${ctx.user.name} cannot read ${this.objectType} "${el._key}"`);
      this.assertWritable(ctx, old);
      const cleaned = this.clean(el);
      const cand = partial && !ctx.bug('partial_overwrites') ? this.partialMerge(old, cleaned) : { ...cleaned, _key: el._key };
      if (!partial) this.checkRequired(cand);
      this.commonValidate(cand);
      if (this.cfg.validate) this.cfg.validate(clone(cand), ctx, old);
      this.assertWritable(ctx, { ...cand, sec_grp: cand.sec_grp === undefined ? GLOBAL_TEAM : cand.sec_grp });
      return { cand, old };
    });
    const keys = plans.map(({ cand, old }) => this.commit(ctx, cand, old, { full: !partial })._key);
    return { _key: keys };
  }

  remove(ctx, key) {
    requireWriter(ctx.user);
    const o = this.get(ctx, key);
    this.assertWritable(ctx, o);
    if (this.cfg.undeletable) {
      const why = this.cfg.undeletable(o, ctx, 'single');
      if (why) throw conflict(why);
    }
    this.map.delete(key);
    if (this.cfg.afterDelete) this.cfg.afterDelete(o, ctx);
    return null;
  }

  bulkRemove(ctx, q) {
    requireWriter(ctx.user);
    const items = this.all().filter((o) => this.readable(ctx, o));
    const pred = compileFilter(q.has('filter') ? q.get('filter') : undefined, ctx);
    let rows = items.filter((o) => pred(this.out(ctx, o)));
    rows = sortItems(rows, q.has('sort_key') ? q.get('sort_key').trim() : undefined, sortDirInt(q, 'sort_dir', ctx));
    const offset = intParam(q, 'offset') || 0;
    let limit = intParam(q, 'limit');
    if (limit === undefined) limit = intParam(q, 'count');
    rows = rows.slice(offset);
    if (limit) rows = rows.slice(0, limit);
    for (const o of rows) {
      if (!this.writable(ctx, o)) continue;
      if (this.cfg.undeletable?.(o, ctx, 'bulk')) continue;
      this.map.delete(o._key);
      if (this.cfg.afterDelete) this.cfg.afterDelete(o, ctx);
    }
    return null;
  }

  // insert seed data (no access checks)
  seed(obj, ownerName = 'nobody', micro) {
    const m = micro || nowMicro();
    const fakeCtx = { user: { name: ownerName, read: '*', write: '*' }, bug: () => false };
    if (obj.sec_grp === undefined && this.cfg.defaultTeam !== false) obj.sec_grp = GLOBAL_TEAM;
    if (this.cfg.normalize) this.cfg.normalize(obj, fakeCtx, undefined);
    const version = obj._version;
    this.stamp(fakeCtx, obj, undefined);
    if (version) obj._version = version;
    // seed objects look older than "now"
    const { create_time, mod_time, mod_timestamp } = backdate(this.cfg, m);
    obj.create_time = create_time;
    obj.mod_time = mod_time;
    obj.mod_timestamp = mod_timestamp;
    obj._etag = etagOf(obj);
    this.map.set(obj._key, obj);
    return obj;
  }
}

function backdate(cfg, micro) {
  return {
    create_time:
      cfg.createTime === 'iso' ? isoWithOffset(micro) : cfg.createTime === 'space' ? spaceSecondTime(micro) : epochSeconds(micro),
    mod_time: cfg.modTime === 'space' ? spaceMicroTime(micro) : epochSeconds(micro),
    mod_timestamp: isoWithOffset(micro),
  };
}

export { boolParam };
