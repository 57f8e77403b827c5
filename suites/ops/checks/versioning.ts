import type { Check } from '../../core/check';
import { MAINTENANCE, SERVICE, BACKUP } from '../collections';
import { countOf, createIn, keys, ownFilter, rows, same, vLatest } from '../support';

export const vLatestPathsAnswerTheSame: Check = {
  id: 'ops.versioning.vlatest-path',
  title: 'Every interface MUST answer the same with /vLatest after the interface segment as without it',
  requirements: ['OPS-VERSION-PATH', 'OPS-VERSION-LATEST-ONLY'],
  async run(ctx) {
    for (const c of [SERVICE, MAINTENANCE, BACKUP]) {
      const { key } = await createIn(ctx, c, `vLatest ${c.type}`);
      if (!key) {
        ctx.untested('OPS-VERSION-PATH', `could not create a ${c.type}`);
        continue;
      }
      const params = { object_type: c.type, _key: key };
      for (const [op, query] of [[c.ops.get, undefined], [c.ops.list, { filter: ownFilter(ctx) }], [c.ops.count, { filter: ownFilter(ctx) }]] as const) {
        const plain = await ctx.http.send(op, { params, query });
        const latest = await ctx.http.send(op, { params, query, path: vLatest });
        const equal = plain.status === latest.status && (op === c.ops.list ? same(keys(rows(plain)), keys(rows(latest))) : op === c.ops.count ? countOf(plain) === countOf(latest) : same(plain.json, latest.json));
        ctx.assert('OPS-VERSION-PATH', equal, equal ? `${op} answers the same under vLatest` : `${op}: ${plain.status} without vLatest, ${latest.status} with it`, latest);
      }
    }
    const types = await ctx.http.send('coreGetSupportedObjectTypes', { path: vLatest });
    ctx.assert('OPS-VERSION-LATEST-ONLY', types.status >= 200 && types.status < 300, `the latest version is served under vLatest (${types.status})`, types);
  },
};
