import type { Check } from './check';
import { notRun, type CheckRun } from './check-run';
import { TransportError, type Transport } from './transport';
import type { Target } from './types';

/** The start of the reason of every requirement a run could not judge because its target went away. */
const LOST_REASON = 'not run: the target stopped answering';

/** After this many checks in a row lose their target, it counts as gone even if a probe still gets through. */
const GONE_AFTER = 3;

/**
 * Tells a target that went away from one connection that failed. A check that loses its connection asks the target
 * again with the run's harmless GET: when that gets no answer either (or three checks in a row lost it), the target
 * is gone, and the run stops there. What it could not judge then is "not run", never failed: a deployment that went
 * away says nothing about its conformance, and a run full of failures would hide that it went away.
 */
export function createLostTarget(target: Target, transport: Transport) {
  let at: string | undefined;
  let inARow = 0;
  let asking: Promise<boolean> | undefined;
  const answers = () => {
    asking ??= transport
      .send({ method: 'GET', url: target.baseUrl, headers: {} })
      .then(() => true)
      // An answer the transport refuses to read whole (too large, say) is still an answer: only silence is gone.
      .catch((e) => !(e instanceof TransportError && (e.kind === 'timeout' || e.kind === 'connection')))
      .finally(() => {
        asking = undefined;
      });
    return asking;
  };
  const reason = () => `${LOST_REASON} at ${at}`;
  return {
    /** The check during which the target went away, once it has. */
    get at() {
      return at;
    },
    /** A check that did not start because the target had gone. */
    skip: (check: Check): CheckRun => notRun(check, 'skipped', reason(), 'lost-target'),
    /** A finished check's run, with what the loss left unjudged made "not run". */
    async after(check: Check, run: CheckRun): Promise<CheckRun> {
      inARow = run.lostTarget ? inARow + 1 : 0;
      if (!run.lostTarget) return run;
      if (!at && (inARow >= GONE_AFTER || !(await answers()))) at = check.id;
      if (!at) return run;
      const records = run.records.map((r) =>
        r.kind === 'transport' && r.outcome === 'fail'
          ? { ...r, outcome: 'untested' as const, message: `${reason()} (${r.message})`, cause: 'lost-target' as const }
          : r,
      );
      return { ...run, records };
    },
  };
}
