import { describe, expect, it } from 'vitest';
import { mustFailed, shouldFailed } from '../harness';
import { expectCaught, expectedOf, mustFailures, toolErrors } from './expect';
import { type CorpusApi, loadCorpus, namedBy } from './manifest';
import { chosen } from '../changes/selection';
import { runServer } from './servers';

/**
 * Every server of the corpus (corpus/servers/<name>/), written from the documents alone and described by its
 * manifest.json, started as a process and reached through the README's variables as a user would reach a deployment.
 * A correct server, and each of its variants, fails no MUST but those its manifest expects (plain HTTP fails the
 * transport) and warns only on the SHOULDs it lists; each documented bug fails every requirement it `breaks` and no
 * MUST beyond them, its `collateral` and the server's expected failures. Every run has a server of its own, and most
 * servers answer after delays: the runs overlap (the project's maxConcurrency, five, at a time). One file per API, so
 * that the two run side by side. `-t <server>` runs one.
 */
export function defineCorpusTests(api: CorpusApi): void {
  // A folder whose manifest does not read is reported by the unit stage (unit/manifest-ids.test.ts).
  const servers = loadCorpus().servers.filter((s) => s.manifest.api === api && anyChosen(s));
  describe.concurrent.each(servers)('$name', defineServerTests);
}

type Server = ReturnType<typeof loadCorpus>['servers'][number];

const anyChosen = (s: Server) =>
  chosen.server(s.manifest.api, s.name) || Object.values(s.manifest.bugs).some((b) => chosen.bug(s.manifest.api, s.name, namedBy(b)));

function defineServerTests(server: Server): void {
  const { expected, variants = {}, bugs } = server.manifest;
  const sorted = (ids: string[]) => [...ids].sort();
  // The quick edit loop (`npm run test:changed`) keeps only the runs a change reaches; otherwise every run goes.
  const correct = chosen.server(server.manifest.api, server.name);

  if (correct)
    it('the correct server: no MUST fails but those expected, and it warns where its manifest says', async () => {
      const report = await runServer(server);
      expect(sorted(mustFailed(report)), mustFailures(report).join('\n')).toEqual(sorted(expected.mustFailures));
      expect(report.summary.gate).toBe(expected.mustFailures.length ? 'fail' : 'pass');
      expect(toolErrors(report), 'no check fails as a tool').toEqual([]);
      expect(sorted(shouldFailed(report))).toEqual(sorted(expected.warnings));
    });

  for (const [variant, changes] of Object.entries(variants))
    if (correct)
      it(`variant ${variant}: no MUST fails but those expected, no warning beyond the server's`, async () => {
        const report = await runServer(server, { variant });
        expect(sorted(mustFailed(report)), `${changes}\n${mustFailures(report).join('\n')}`).toEqual(sorted(expected.mustFailures));
        expect(report.summary.gate).toBe(expected.mustFailures.length ? 'fail' : 'pass');
        expect(toolErrors(report), 'no check fails as a tool').toEqual([]);
        expect(shouldFailed(report).filter((id) => !expected.warnings.includes(id))).toEqual([]);
      });

  for (const [bug, b] of Object.entries(bugs))
    if (chosen.bug(server.manifest.api, server.name, namedBy(b)))
      it(`bug ${bug}: fails the requirements it breaks, and no MUST beyond its collateral`, async () => {
        const want = expectedOf(b, expected.mustFailures);
        if (!want)
          expect.fail(
            `bug ${bug} has no requirement mapped: give it "breaks" (or "warns", "untested", "reading") in ${server.name}/manifest.json`,
          );
        expectCaught(await runServer(server, { bug }), want, `${bug}: ${b.clause}`);
      });
}
