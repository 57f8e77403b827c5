// The maintenance and backup interfaces share one routing shape over a single object type.
import { requireWriter } from './auth.mjs';
import { countRows, createOne, deleteMany, deleteOne, getOne, isPartial, listRows, updateOne } from './crud.mjs';
import { notAllowed, notFound } from './http.mjs';

export function handleSimple(kind, ctx, rest, countBug) {
  const { method, q, body, user } = ctx;
  if (method !== 'GET') requireWriter(user);
  if (rest.length === 0) {
    if (method === 'GET') return { status: 200, body: listRows(kind, user, q) };
    if (method === 'POST') {
      const r = createOne(kind, user, body);
      return { status: r.created ? 201 : 200, body: { _key: r.key } };
    }
    if (method === 'DELETE') {
      deleteMany(kind, user, q);
      return { status: 204 };
    }
    throw notAllowed();
  }
  if (rest.length === 1) {
    const [key] = rest;
    if (key === 'count' && method === 'GET') return { status: 200, body: countRows(kind, user, q, { ignoreAccessBug: countBug }) };
    if (method === 'GET') return { status: 200, body: getOne(kind, user, key) };
    if (method === 'POST') return { status: 200, body: { _key: updateOne(kind, user, key, body, isPartial(q)) } };
    if (method === 'DELETE') {
      deleteOne(kind, user, key);
      return { status: 204 };
    }
    throw notAllowed();
  }
  throw notFound(`path ${kind.type}/${rest.join('/')}`);
}
