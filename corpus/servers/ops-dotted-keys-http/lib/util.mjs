// Shared helpers: errors, JSON output, time formats, keys, query-parameter parsing.
import { randomInt } from 'node:crypto';

export const SCHEMA_VERSION = '4.20.0';
export const GLOBAL_TEAM = 'default_ops_security_group';

export class HttpError extends Error {
  constructor(status, text, extraHeaders) {
    super(text);
    this.status = status;
    this.text = text;
    this.extraHeaders = extraHeaders || {};
  }
}

export const bad = (text) => new HttpError(400, text);
export const notFound = (text) => new HttpError(404, text || 'Not found');
export const forbidden = (text) => new HttpError(403, text || 'Permission denied');

export function errorBody(text, type = 'ERROR') {
  return { messages: [{ type, text }] };
}

// ---------------------------------------------------------------- time
const pad = (n, w = 2) => String(n).padStart(w, '0');
let microTick = 0;
// microseconds: milliseconds from the clock plus a rolling sub-millisecond part
export function nowParts() {
  const ms = Date.now();
  microTick = (microTick + 137) % 1000;
  return { ms, micro: (ms % 1000) * 1000 + microTick };
}
function dateFields(ms) {
  const d = new Date(ms);
  return {
    Y: d.getUTCFullYear(),
    M: pad(d.getUTCMonth() + 1),
    D: pad(d.getUTCDate()),
    h: pad(d.getUTCHours()),
    m: pad(d.getUTCMinutes()),
    s: pad(d.getUTCSeconds()),
  };
}
// 2024-05-16T08:18:00.737813+00:00
export function isoMicro(p = nowParts()) {
  const f = dateFields(p.ms);
  return `${f.Y}-${f.M}-${f.D}T${f.h}:${f.m}:${f.s}.${pad(p.micro, 6)}+00:00`;
}
// 2024-05-16 08:18:00.737813
export function spaceMicro(p = nowParts()) {
  const f = dateFields(p.ms);
  return `${f.Y}-${f.M}-${f.D} ${f.h}:${f.m}:${f.s}.${pad(p.micro, 6)}`;
}
// 2024-05-16 08:18:00
export function spaceSeconds(ms = Date.now()) {
  const f = dateFields(ms);
  return `${f.Y}-${f.M}-${f.D} ${f.h}:${f.m}:${f.s}`;
}
// epoch float with microseconds, e.g. 1716000000.123456
export function epochFloat(p = nowParts()) {
  return Math.floor(p.ms / 1000) + p.micro / 1e6;
}

// ---------------------------------------------------------------- keys
let keyCounter = 4100;
const B36 = '0123456789abcdefghijklmnopqrstuvwxyz';
export function newKey(prefix) {
  keyCounter += 1;
  const r = B36[randomInt(36)] + B36[randomInt(36)];
  return `${prefix}.${pad(keyCounter, 6)}:${r}`;
}
export function newSid(action) {
  keyCounter += 1;
  return `ops_act__nobody__SA-ITOA__${action}_at_${Math.floor(Date.now() / 1000)}_${keyCounter}`;
}

// ---------------------------------------------------------------- misc
export const clone = (v) => (v === undefined ? undefined : structuredClone(v));
export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isStr = (v) => typeof v === 'string';
export const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
export const isStrArray = (v) => Array.isArray(v) && v.every(isStr);

export function getPath(obj, path) {
  // dotted path; arrays are traversed and yield several values
  const parts = path.split('.');
  let cur = [obj];
  for (const p of parts) {
    const next = [];
    for (const c of cur) {
      if (Array.isArray(c)) {
        for (const e of c) if (isObj(e) && p in e) next.push(e[p]);
      } else if (isObj(c) && p in c) next.push(c[p]);
    }
    cur = next;
    if (!cur.length) return [];
  }
  return cur;
}

// ---------------------------------------------------------------- query params
export function qp(query, name) {
  // repeated parameters: the LAST occurrence wins
  const all = query.getAll(name);
  return all.length ? all[all.length - 1] : undefined;
}
export function intParam(query, name, { min = 0 } = {}) {
  const v = qp(query, name);
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v.trim())) throw bad(`Invalid value for parameter "${name}": expected an integer, got "${v}"`);
  const n = Number(v.trim());
  if (n < min || !Number.isSafeInteger(n)) throw bad(`Invalid value for parameter "${name}": must be an integer >= ${min}`);
  return n;
}
export function boolParam01(query, name, dflt) {
  const v = qp(query, name);
  if (v === undefined || v === '') return dflt;
  if (v === '1') return true;
  if (v === '0') return false;
  throw bad(`Invalid value for parameter "${name}": expected 1 or 0, got "${v}"`);
}
// a Boolean inside a JSON body: true/false or 1/0 (numbers or strings)
export function bodyBool(v, name) {
  if (v === true || v === 1 || v === '1' || v === 'true' || v === 'True') return true;
  if (v === false || v === 0 || v === '0' || v === 'false' || v === 'False') return false;
  throw bad(`Invalid value for "${name}": expected a Boolean (1 or 0)`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export { randomInt };
