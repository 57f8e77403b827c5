import { compact } from '../../core/expect';
import { isDoc } from '../../core/json';
import { SERVICE } from '../collections';
import { getIn, listIn, ok, type Doc, type OpsCheck, type OpsContext } from '../support';
import { docs, failuresFor, listPacks, member, packParams, packsOf, previewOf, shown, str, successIds } from './content-packs-support';

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
  title: 'An install whose content names an identifier the pack does not hold MUST report it in failure (or be refused); a service an install does install MUST NOT also be reported in failure',
  requirements: ['OPS-ERR-CP-INSTALL-FAILURES', 'OPS-CP-INSTALL-RESULT'],
  shares: ['content-packs'],
  destructive: true,
  async run(ctx) {
    const found = await freeService(ctx);
    if (!found) return ctx.untested('OPS-CP-INSTALL-RESULT', 'no content pack has a service that is not installed yet');
    const { pack } = found;
    const prefix = `${ctx.options.runTag} `;
    // The document: `content` is "sent as an object mapping object-type name to an array of identifiers".
    const install = (id: string) => ctx.http.send('contentPackInstall', { params: packParams(pack), body: { content: { service: [id] }, prefix, resolution: 'skip' } });

    const unknown = `${ctx.options.runTag}-no-such-object`;
    const missing = await install(unknown);
    const stray = ok(missing) ? successIds(missing) : [];
    // Objects installed by an install that named none of them: content was not honoured, which is another rule's failure.
    if (stray.length) ctx.untested('OPS-ERR-CP-INSTALL-FAILURES', `the install naming only ${unknown} installed ${stray.join(', ')}: content was not honoured (OPS-CP-INSTALL-CONTENT)`, missing);
    else
      ctx.expect.that(
        'OPS-ERR-CP-INSTALL-FAILURES',
        `install of ${pack.id} naming the identifier ${unknown}, which the pack does not hold`,
        !ok(missing) || failuresFor(missing, unknown).length > 0,
        { expected: `a refusal, or a success whose failure has an entry for ${unknown}`, actual: ok(missing) ? `a success with failure ${compact(member(missing, 'failure'))}` : shown(missing) },
        missing,
      );

    const ex = await install(found.id);
    // Whatever the install put there is removed when the check ends: under the pack's identifier or by its title.
    const byKey = await getIn(ctx, SERVICE, found.id);
    const installed = ok(byKey) && isDoc(byKey.json) ? byKey.json : docs((await listIn(ctx, SERVICE, { filter: JSON.stringify({ title: prefix + found.title }) })).json)[0];
    const key = installed?._key;
    if (str(key)) ctx.ledger.add(`service ${key}`, () => ctx.http.send('coreDelete', { params: { object_type: 'service', _key: key } }));
    if (!ok(ex) || !successIds(ex).includes(found.id)) return ctx.untested('OPS-CP-INSTALL-RESULT', `installing ${found.id} of ${pack.id} answered ${shown(ex)}, without it in success`, ex);
    ctx.expect.equal('OPS-CP-INSTALL-RESULT', `failure entries for ${found.id}, which success reports installed`, failuresFor(ex, found.id), [], ex);
  },
};
