import fc from 'fast-check';
import type { WireRequest } from './api-request';
import { maskedHeaders, withPreview } from './fuzz-run';
import { bodyText } from './hostile';
import { materialise, targetPlan, type SpecOperation, type TargetOptions, type TargetPlan } from './spec-operations';

/** A generated request before its path references are resolved against the objects a run holds. */
export interface PlannedRequest {
  method: string;
  /** A spec operation's path with generated segments, or a stray target outside the spec. */
  plan: TargetPlan | string;
  headers: Record<string, string>;
  body: string;
}

/** What differs between the two APIs when generating requests: everything else is shared. */
export interface RequestSpace {
  operations: readonly SpecOperation[];
  target: TargetOptions;
  headers: fc.Arbitrary<Record<string, string>>;
  body: (op: SpecOperation) => fc.Arbitrary<Record<string, unknown> | unknown[]>;
  strayTargets: readonly string[];
  strayBody: fc.Arbitrary<Record<string, unknown> | unknown[]>;
  /** How many spec-shaped requests per stray one. */
  templatedWeight: number;
}

export function plannedRequest(space: RequestSpace, method: fc.Arbitrary<string>): fc.Arbitrary<PlannedRequest> {
  const templated = fc.constantFrom(...space.operations).chain((op) =>
    fc.record({
      method: fc.oneof({ weight: 4, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: method }),
      plan: targetPlan(op, space.target),
      headers: space.headers,
      body: bodyText(space.body(op)),
    }),
  );
  const stray = fc.record({
    method,
    plan: fc.constantFrom(...space.strayTargets),
    headers: space.headers,
    body: bodyText(space.strayBody),
  });
  return fc
    .oneof({ weight: space.templatedWeight, arbitrary: templated }, { weight: 1, arbitrary: stray })
    .map((p) =>
      withPreview(
        p,
        (v) =>
          `${v.method} ${typeof v.plan === 'string' ? v.plan : JSON.stringify(v.plan).slice(0, 300)} ${JSON.stringify(maskedHeaders(v.headers)).slice(0, 120)} body(${v.body.length}): ${JSON.stringify(v.body.slice(0, 100))}`,
      ),
    );
}

export const toWire = (
  p: PlannedRequest,
  resolve: Parameters<typeof materialise>[1],
  vlatestAfter: readonly string[] = [],
): WireRequest => ({
  method: p.method,
  target: typeof p.plan === 'string' ? p.plan : materialise(p.plan, resolve, vlatestAfter),
  headers: p.headers,
  body: p.body,
});

/** Requests over sockets cost more than in-process calls: a sixth of the budget, at least ten. */
export const socketRuns = (runs: number) => Math.max(10, Math.round(runs / 6));
