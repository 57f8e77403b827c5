import { compact } from '../../core/expect';
import { isDoc } from '../../core/json';
import { need } from '../../core/precondition';
import { SERVICE } from '../collections';
import { getIn, listIn, ok, type Doc, type OpsCheck, type OpsContext } from '../support';
import { docs, failuresFor, listPacks, member, packsOf, previewOf, shown, str, successIds } from './content-packs-support';
import { install } from './content-packs-install';

/** A pack with a service (the preview's `services` group) that is neither installed nor present under its identifier. */
async function freeService(ctx: OpsContext): Promise<{ pack: Doc; id: string; title: string } | undefined> {
  for (const pack of packsOf(await listPacks(ctx)).filter((p) => str(p.id) && str(p.version))) {
    const preview = await previewOf(ctx, pack);
    const entries = isDoc(preview.json) ? docs(preview.json.services) : [];
    for (const e of entries) {
      if (!str(e.id) || !str(e.title) || e.installed === true) continue;
      if (!ok(await getIn(ctx, SERVICE, e.id))) return { pack, id: e.id, title: e.title };
    }
  }
  return undefined;
}

export const installFailures: OpsCheck = {
  id: 'ops.content-packs.install-failures',
  title:
    'A service an install does install MUST NOT also be reported in failure (what an install does with an identifier the pack does not hold is observed)',
  requirements: ['OPS-CP-INSTALL-RESULT', 'OPS-ERR-CP-INSTALL-FAILURES'],
  shares: ['content-packs'],
  destructive: true,
  async run(ctx) {
    const found = need(await freeService(ctx), 'no content pack has a service that is not installed yet');
    const { pack } = found;
    const prefix = `${ctx.options.runTag} `;
    // The document: `content` is "sent as an object mapping object-type name to an array of identifiers".
    const installOne = (id: string) => install(ctx, pack, { content: { service: [id] }, prefix, resolution: 'skip' });

    // What an install does with an identifier the pack does not hold is not said (refusing it, reporting it in
    // failure and ignoring it are all readings of "install only these objects"): observed, never judged.
    const unknown = `${ctx.options.runTag}-no-such-object`;
    const missing = await installOne(unknown);
    const said = !ok(missing)
      ? `was refused (${shown(missing)})`
      : failuresFor(missing, unknown).length
        ? 'reported it in failure'
        : `succeeded without it in failure (success ${compact(member(missing, 'success'))})`;
    ctx.observe('OPS-ERR-CP-INSTALL-FAILURES', `an install of ${String(pack.id)} naming ${unknown}, which the pack does not hold, ${said}`);

    const ex = await installOne(found.id);
    // Whatever the install put there is removed when the check ends: under the pack's identifier or by its title, and
    // any other service it brought along (a server may install what the named service depends on) by the run's prefix.
    const byKey = await getIn(ctx, SERVICE, found.id);
    const ours = docs((await listIn(ctx, SERVICE, { filter: JSON.stringify({ title: { $regex: `^${ctx.options.runTag} ` } }) })).json);
    const installed = ok(byKey) && isDoc(byKey.json) ? [byKey.json, ...ours] : ours;
    for (const key of new Set(installed.map((d) => d._key).filter(str)))
      ctx.ledger.add(`service ${key}`, () => ctx.http.send('coreDelete', { params: { object_type: 'service', _key: key } }));
    if (!ok(ex) || !successIds(ex).includes(found.id))
      return ctx.untested('OPS-CP-INSTALL-RESULT', `installing ${found.id} of ${pack.id} answered ${shown(ex)}, without it in success`, ex);
    ctx.expect.equal(
      'OPS-CP-INSTALL-RESULT',
      `failure entries for ${found.id}, which success reports installed`,
      failuresFor(ex, found.id),
      [],
      ex,
    );
  },
};
