// Response writing (delay, compression, content types) and request body reading.
import zlib from 'node:zlib';
import { HttpError } from './util.mjs';

export const JSON_CT = 'application/json;charset=utf-8';
export const TEXT_CT = 'text/plain';
export const XML_CT = 'text/xml; charset=UTF-8';
export const MAX_BODY = 4 * 1024 * 1024;
// Bodies seen in the field are preceded by a run of white space and a newline.
const JSON_LEAD = ' '.repeat(96) + '\n';

function parseAcceptEncoding(h) {
  const out = new Map();
  if (typeof h !== 'string') return out;
  for (const part of h.split(',')) {
    const [tok, ...params] = part.trim().split(';');
    if (!tok) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    out.set(tok.trim().toLowerCase(), Number.isFinite(q) ? q : 0);
  }
  return out;
}
function accepts(map, enc) {
  if (map.has(enc)) return map.get(enc) > 0;
  if (map.has('*')) return map.get('*') > 0;
  return false;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function writeResponse(req, res, status, body, contentType, headers = {}) {
  await sleep(Math.floor(Math.random() * 26));
  if (res.writableEnded || res.destroyed) return;
  const h = {
    Server: 'platformd',
    'Cache-Control': 'no-store, no-cache, must-revalidate, max-age=0',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'SAMEORIGIN',
    Date: new Date().toUTCString(),
    Vary: 'Accept-Encoding, Authorization',
    ...headers,
  };
  let buf = body == null || body === '' ? null : Buffer.isBuffer(body) ? body : Buffer.from(String(body), 'utf8');
  if (buf) {
    h['Content-Type'] = contentType;
    const ae = parseAcceptEncoding(req.headers['accept-encoding']);
    if (accepts(ae, 'deflate')) {
      buf = zlib.deflateSync(buf);
      h['Content-Encoding'] = 'deflate';
    } else if (accepts(ae, 'gzip')) {
      buf = zlib.gzipSync(buf);
      h['Content-Encoding'] = 'gzip';
    }
    h['Content-Length'] = String(buf.length);
  } else {
    h['Content-Length'] = '0';
  }
  try {
    res.writeHead(status, h);
    res.end(buf || undefined);
  } catch {
    try {
      res.destroy();
    } catch {
      /* ignore */
    }
  }
}

export const jsonBody = (v) => JSON_LEAD + JSON.stringify(v);

export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let failed = false;
    req.on('data', (c) => {
      if (failed) return;
      size += c.length;
      if (size > MAX_BODY) {
        failed = true;
        reject(new HttpError(413, `Request body too large (limit ${MAX_BODY} bytes)`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (failed) return;
      let buf = Buffer.concat(chunks);
      const enc = String(req.headers['content-encoding'] || 'identity')
        .trim()
        .toLowerCase();
      try {
        if (enc === 'gzip' || enc === 'x-gzip') buf = zlib.gunzipSync(buf, { maxOutputLength: MAX_BODY });
        else if (enc === 'deflate') {
          try {
            buf = zlib.inflateSync(buf, { maxOutputLength: MAX_BODY });
          } catch {
            buf = zlib.inflateRawSync(buf, { maxOutputLength: MAX_BODY });
          }
        } else if (enc !== 'identity' && enc !== '') {
          return reject(new HttpError(415, `Unsupported Content-Encoding: ${enc}`));
        }
      } catch {
        return reject(new HttpError(400, 'Request body could not be decompressed'));
      }
      resolve(buf);
    });
    req.on('error', (e) => {
      if (!failed) {
        failed = true;
        reject(e);
      }
    });
  });
}
