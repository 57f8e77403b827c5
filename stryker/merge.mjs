/*
 * Merging Stryker json reports (mutation-testing-elements format) of separate runs, for stryker/summary.mjs and
 * stryker/survivors.mjs: batches of files run one after the other, or a run of a few lines (`--mutate FILE:10-20`)
 * after a full run, say once checks were strengthened.
 */

const mutantId = (m) =>
  `${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ''}`;

/**
 * Files keyed by path. A file present in several reports with the same source keeps every mutant, each with the
 * result of the last report that ran it; where the source differs, the last report's file replaces the earlier
 * results (they are of other code).
 */
export function mergeReports(reports) {
  const files = {};
  for (const r of reports) {
    for (const [name, f] of Object.entries(r.files)) {
      const earlier = files[name];
      if (!earlier || earlier.source !== f.source) {
        files[name] = f;
        continue;
      }
      const byId = new Map(earlier.mutants.map((m) => [mutantId(m), m]));
      for (const m of f.mutants) byId.set(mutantId(m), m);
      files[name] = { ...f, mutants: [...byId.values()] };
    }
  }
  return { ...reports.at(-1), files };
}
