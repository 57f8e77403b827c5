import { compact } from '../../core/expect';
import { ok, schemaFindings, type Doc, type OpsCheck, type OpsContext } from '../support';
import { listPacks, packsOf, idsOf } from './content-packs-support';

const refresh = (ctx: OpsContext, body: Doc) => ctx.http.send('contentPackRefresh', { body });

export const libraryRefresh: OpsCheck = {
  id: 'ops.content-packs.refresh',
  title: 'POST content_pack/refresh MUST answer {success, failed}, each with apps_added and apps_removed arrays of strings',
  requirements: ['OPS-CP-REFRESH', 'OPS-CP-REFRESH-SYNC'],
  shares: ['content-packs'],
  destructive: true,
  async run(ctx) {
    const before = idsOf(packsOf(await listPacks(ctx)));
    // The payload is "apps added and removed": once without it, once naming none.
    for (const body of [{}, { apps_added: [], apps_removed: [] }]) {
      const ex = await refresh(ctx, body);
      // The RefreshResult schema states the whole shape: the answer is judged by it, as the validating client judges it.
      const findings = schemaFindings('RefreshResult', ex.json).map((f) => f.message);
      ctx.expect.that(
        'OPS-CP-REFRESH',
        `refresh with ${JSON.stringify(body)}`,
        ok(ex) && findings.length === 0,
        {
          expected: 'a success matching RefreshResult: {success, failed}, each with apps_added and apps_removed arrays of strings',
          actual: `${ex.status}${findings.length ? `: ${findings.join('; ')}` : ''}`,
        },
        ex,
      );
      ctx.observe('OPS-CP-REFRESH-SYNC', `refresh with ${JSON.stringify(body)} reported ${compact(ex.json)}`);
    }
    const after = idsOf(packsOf(await listPacks(ctx)));
    // What refresh synchronizes is a configuration file, not the library list: the list is recorded, never judged.
    ctx.observe(
      'OPS-CP-REFRESH-SYNC',
      `the library listed ${before.length} packs before the refreshes and ${after.length} after${before.join() === after.join() ? ', the same ones' : ` (${after.join(', ')})`}`,
    );
    ctx.untested(
      'OPS-CP-REFRESH-SYNC',
      'ops_content_packs.conf, which refresh synchronizes with the installed content packs, cannot be read over this API',
    );
  },
};
