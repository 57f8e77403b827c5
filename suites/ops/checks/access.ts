import type { Check } from '../../core/check';
import { BACKUP, MAINTENANCE, SERVICE } from '../collections';
import { countIn, countOf, createIn, deleteIn, getIn, keys, listIn, ok, rows, updateIn, type Doc } from '../support';

export const basicAuthRequired: Check = {
  id: 'ops.auth.basic',
  title: 'Requests with a valid username and password MUST be served; requests without valid credentials MUST NOT read or change anything',
  requirements: ['OPS-AUTH-BASIC', 'OPS-AUTH-ACCESS-CHECKS', 'OPS-ERR-STATUS-NOT-SHOWN'],
  async run(ctx) {
    const served = await ctx.http.send('coreGetSupportedObjectTypes');
    ctx.assert('OPS-AUTH-BASIC', ok(served), `basic credentials were answered ${served.status}`, served);
    const wrong = `Basic ${Buffer.from(`conformance-${ctx.options.runTag}:wrong`).toString('base64')}`;
    for (const [what, headers] of [['no credentials', {}], ['a wrong password', { authorization: wrong }]] as const) {
      const read = await ctx.http.send('coreList', { as: null, headers, params: { object_type: 'service' } });
      ctx.assert('OPS-AUTH-ACCESS-CHECKS', read.status >= 400 && read.status < 500 && !Array.isArray(read.json), `a list with ${what} answered ${read.status}`, read);
      ctx.assert('OPS-ERR-STATUS-NOT-SHOWN', read.status < 500, `a request with ${what} is a client mistake answered ${read.status}`, read);
      ctx.observe('OPS-ERR-STATUS-NOT-SHOWN', `${what}: ${read.status} ${read.text.slice(0, 100).replace(/\s+/g, ' ')}`);
      const before = countOf(await countIn(ctx, SERVICE));
      const write = await ctx.http.send('coreCreate', { as: null, headers, params: { object_type: 'service' }, body: { title: `${ctx.options.runTag} must not exist` } });
      const after = countOf(await countIn(ctx, SERVICE));
      ctx.assert('OPS-AUTH-ACCESS-CHECKS', !ok(write) && before === after, `a create with ${what} answered ${write.status}; service count ${before} → ${after}`, write);
    }
  },
};

export const readOnlyCannotWrite: Check = {
  id: 'ops.auth.read-only-user',
  title: 'A caller without write access MUST NOT create, update or delete objects',
  requirements: ['OPS-AUTH-ACCESS-CHECKS'],
  needs: ['readonly'],
  async run(ctx) {
    const { key } = await createIn(ctx, SERVICE, 'Read Only Target', { cf_note: 'original' });
    if (!key) return ctx.untested('OPS-AUTH-ACCESS-CHECKS', 'could not create a service');
    const create = await ctx.http.send('coreCreate', { as: 'readonly', params: { object_type: 'service' }, body: { title: `${ctx.options.runTag} by reader` } });
    if (ok(create)) await deleteIn(ctx, SERVICE, String((create.json as Doc)?._key));
    ctx.assert('OPS-AUTH-ACCESS-CHECKS', !ok(create), `a read-only create answered ${create.status}`, create);
    const upd = await updateIn(ctx, SERVICE, key, { cf_note: 'changed by reader' }, 1, { as: 'readonly' });
    const del = await deleteIn(ctx, SERVICE, key, { as: 'readonly' });
    const after = await getIn(ctx, SERVICE, key);
    ctx.assert('OPS-AUTH-ACCESS-CHECKS', !ok(upd) && (after.json as Doc)?.cf_note === 'original', `a read-only update answered ${upd.status}; cf_note is now ${JSON.stringify((after.json as Doc)?.cf_note)}`, upd);
    ctx.assert('OPS-AUTH-ACCESS-CHECKS', !ok(del) && ok(after), `a read-only delete answered ${del.status}; the object reads ${after.status}`, del);
  },
};

export const resultsRestrictedToReadable: Check = {
  id: 'ops.auth.results-readable',
  title: "Lists and counts MUST contain only objects the caller can read: never more than an administrator sees, and counts match the caller's own list",
  requirements: ['OPS-AUTH-RESULTS-READABLE', 'OPS-AUTH-COUNTS'],
  needs: ['readonly'],
  async run(ctx) {
    for (const c of [SERVICE, MAINTENANCE, BACKUP]) {
      const admin = new Set(keys(rows(await listIn(ctx, c))));
      const mine = keys(rows(await listIn(ctx, c, {}, { as: 'readonly' })));
      const extra = mine.filter((k) => !admin.has(k));
      ctx.assert('OPS-AUTH-RESULTS-READABLE', extra.length === 0, extra.length ? `the read-only caller sees ${c.type} ${extra.join(', ')} that the administrator does not` : `${c.type}: the read-only list is within the administrator's`);
      const count = await countIn(ctx, c, {}, { as: 'readonly' });
      const req = c === SERVICE ? 'OPS-AUTH-RESULTS-READABLE' : 'OPS-AUTH-COUNTS';
      ctx.assert(req, countOf(count) === mine.length, `${c.type}: the read-only count is ${countOf(count)}, its list has ${mine.length}`, count);
      if (mine.length < admin.size) ctx.observe('OPS-AUTH-RESULTS-READABLE', `${c.type}: the read-only caller sees ${mine.length} of ${admin.size} objects`);
    }
  },
};
