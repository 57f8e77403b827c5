import { describe, expect, it } from 'vitest';
import { expectVerdict, mapsToRequirements } from '../expectation';
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
  // The quick edit loop (`npm run test:changed`) keeps only the runs a change reaches; otherwise every run goes.
  const correct = chosen.server(server.manifest.api, server.name);

  // A correct server fails exactly its expected MUSTs (plain HTTP fails the transport) and warns exactly where its
  // manifest says; a variant of it may warn less, never more; a bug fails what it breaks and no MUST beyond.
  if (correct)
    it('the correct server: no MUST fails but those expected, and it warns where its manifest says', async () => {
      const want = { breaks: expected.mustFailures, warns: expected.warnings };
      expectVerdict(await runServer(server), want, `${server.name}, correct`, { noOtherWarnings: true });
    });

  for (const [variant, changes] of Object.entries(variants))
    if (correct)
      it(`variant ${variant}: no MUST fails but those expected, no warning beyond the server's`, async () => {
        const base = { warnings: expected.warnings, noOtherWarnings: true };
        expectVerdict(
          await runServer(server, { variant }),
          { breaks: expected.mustFailures },
          `${server.name}, ${variant}: ${changes}`,
          base,
        );
      });

  for (const [bug, b] of Object.entries(bugs))
    if (chosen.bug(server.manifest.api, server.name, namedBy(b)))
      it(`bug ${bug}: fails the requirements it breaks, and no MUST beyond its collateral`, async () => {
        if (!mapsToRequirements(b))
          expect.fail(
            `bug ${bug} has no requirement mapped: give it "breaks" (or "warns", "untested", "reading") in ${server.name}/manifest.json`,
          );
        expectVerdict(await runServer(server, { bug }), b, `${bug}: ${b.clause}`, { mustFailures: expected.mustFailures });
      });
}
