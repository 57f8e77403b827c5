import type { Exchange } from '../../core/types';
import { ok, type Doc, type OpsCheck, type OpsContext } from '../support';
import { isDoc } from '../../core/json';
import { str, shown, member, listPacks, packsOf, idsOf } from './content-packs-support';


const refresh = (ctx: OpsContext, body: Doc) => ctx.http.send('contentPackRefresh', { body });
function refreshShaped(ex: Exchange): boolean {
  const part = (side: string) => {
    const s = member(ex, side);
    return isDoc(s) && ['apps_added', 'apps_removed'].every((k) => Array.isArray(s[k]) && (s[k] as unknown[]).every(str));
  };
  return ok(ex) && part('success') && part('failed');
}

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
      ctx.assert('OPS-CP-REFRESH', refreshShaped(ex), `refresh with ${JSON.stringify(body)} answered ${shown(ex)}`, ex);
      ctx.observe('OPS-CP-REFRESH-SYNC', `refresh with ${JSON.stringify(body)} reported ${JSON.stringify(ex.json).slice(0, 200)}`);
    }
    const after = idsOf(packsOf(await listPacks(ctx)));
    // What refresh synchronizes is a configuration file, not the library list: the list is recorded, never judged.
    ctx.observe('OPS-CP-REFRESH-SYNC', `the library listed ${before.length} packs before the refreshes and ${after.length} after${before.join() === after.join() ? ', the same ones' : ` (${after.join(', ')})`}`);
    ctx.untested('OPS-CP-REFRESH-SYNC', 'ops_content_packs.conf, which refresh synchronizes with the installed content packs, cannot be read over this API');
  },
};
