// Glass table icons (/services/SA-ITOA/v1/icon_collection).
import {
  SCHEMA_VERSION,
  bad,
  invalid,
  notFound,
  forbidden,
  methodNotAllowed,
  isObj,
  clone,
  boolParam,
  upperUuid,
  lastParam,
} from './util.mjs';
import { db } from './store.mjs';
import { canWriteGlobalResource } from './auth.mjs';
import { sharedQuery, select, project } from './query.mjs';
import { bug } from './bugs.mjs';

const FIELDS = ['title', 'svg_path', 'default_width', 'default_height', 'category'];

function categories() {
  const out = db.iconCategories.map((name) => ({ name, immutable: 1 }));
  const custom = new Set();
  for (const i of db.icons.values()) if (!db.iconCategories.includes(i.category)) custom.add(i.category);
  for (const name of [...custom].sort()) out.push({ name });
  return out;
}

function normalizeIcon(x) {
  if (!isObj(x)) throw invalid('Each icon must be an object', 'INVALID_FIELD');
  const o = {};
  for (const f of FIELDS) {
    const v = x[f];
    if (v === undefined || v === null) throw invalid(`Icon field "${f}" is required`, 'MISSING_REQUIRED_FIELD');
    if (f === 'default_width' || f === 'default_height') {
      if (typeof v === 'number' && Number.isFinite(v)) o[f] = String(v);
      else if (typeof v === 'string' && v.trim() !== '') o[f] = v;
      else throw invalid(`Icon field "${f}" must be a size`, 'INVALID_FIELD');
    } else {
      if (typeof v !== 'string') throw invalid(`Icon field "${f}" must be a string`, 'INVALID_FIELD');
      o[f] = v;
    }
  }
  if (x._key !== undefined) {
    if (typeof x._key !== 'string' || !x._key) throw invalid('_key must be a non-empty string', 'INVALID_FIELD');
    o._key = x._key;
  }
  return o;
}

export function handleIcons(ctx, segs) {
  const { method, q, user } = ctx;
  if (segs.length === 0) {
    if (method === 'GET') {
      if (boolParam(q, 'list_categories', false)) return ctx.reply(200, categories());
      const sq = sharedQuery(q);
      let rows = [...db.icons.values()];
      const cat = lastParam(q, 'category');
      if (cat !== undefined && !bug('icon_category_ignored')) rows = rows.filter((i) => i.category === cat);
      const result = select(rows, sq).map((i) => project(clone(i), sq.fields));
      return ctx.reply(200, { total: db.icons.size, result });
    }
    if (method === 'POST') {
      const body = ctx.json();
      if (!Array.isArray(body)) throw bad('Payload must be a JSON array of icon objects', 'INVALID_PAYLOAD');
      const icons = body.map(normalizeIcon);
      if (!canWriteGlobalResource(user)) throw forbidden(`User ${user.name} cannot save icons`);
      const keys = [];
      for (const i of icons) {
        const key = i._key || upperUuid();
        db.icons.set(key, {
          _key: key,
          ...Object.fromEntries(FIELDS.map((f) => [f, i[f]])),
          object_type: 'icon',
          _version: SCHEMA_VERSION,
          _user: 'nobody',
        });
        keys.push(key);
      }
      return ctx.reply(201, keys);
    }
    if (method === 'DELETE') {
      if (!canWriteGlobalResource(user)) throw forbidden(`User ${user.name} cannot delete icons`);
      const cat = lastParam(q, 'category');
      if (cat !== undefined) {
        for (const [k, i] of [...db.icons]) if (cat === '*' || i.category === cat) db.icons.delete(k);
      }
      return ctx.reply(200, { Deleted: 'True' });
    }
    throw methodNotAllowed(['GET', 'POST', 'PUT', 'DELETE']);
  }
  if (segs.length === 1) {
    const key = segs[0];
    const i = db.icons.get(key);
    if (method === 'GET') {
      if (!i) throw notFound(`No icon with _key ${key}`);
      return ctx.reply(200, clone(i));
    }
    if (method === 'DELETE') {
      if (!i) throw notFound(`No icon with _key ${key}`);
      if (!canWriteGlobalResource(user)) throw forbidden(`User ${user.name} cannot delete icons`);
      db.icons.delete(key);
      return ctx.reply(200, { Deleted: 'True' });
    }
    throw methodNotAllowed(['GET', 'DELETE']);
  }
  throw notFound('No such endpoint');
}
