import type { Spec } from './spec';
import type { Exchange } from './types';

export type Sink = (requirement: string, ok: boolean, message: string, ex: Exchange, details?: unknown) => void;

/**
 * What the spec says of every answer, applied to each exchange so no check has to repeat it:
 * the status is one the operation lists, a body is JSON, and the body matches the schema for that status.
 */
export function inspectExchange(spec: Spec, ex: Exchange, sink: Sink): void {
  const opId = ex.operationId;
  if (!opId) return;
  const op = spec.operations.get(opId)!;
  const where = `${op.method} ${op.path} → ${ex.status}`;

  if (spec.listedStatusesRequirement) {
    const listed = op.statuses.includes(String(ex.status)) || op.statuses.includes('default');
    sink(
      spec.listedStatusesRequirement,
      listed,
      listed
        ? `${opId} answered a listed status`
        : `${where}: status ${ex.status} is not one the document lists for ${opId} (${op.statuses.join(', ')})`,
      ex,
    );
  }

  const hasBody = ex.text.trim() !== '';
  const expectsBody = spec.responseHasBody(opId, ex.status);
  if (spec.contentTypeRequirement && hasBody) {
    const ct = ex.headers['content-type'] ?? '';
    const ok = /^application\/json\b/i.test(ct);
    sink(
      spec.contentTypeRequirement,
      ok,
      ok ? 'body is application/json' : `${where}: content-type is '${ct || '(none)'}', not application/json`,
      ex,
    );
  }
  if (expectsBody === false && hasBody && spec.listedStatusesRequirement) {
    sink(
      spec.listedStatusesRequirement,
      false,
      `${where}: the spec gives this answer no body, but it has ${ex.text.length} characters`,
      ex,
    );
  }

  const schema = spec.responseSchema(opId, ex.status);
  // A refusal answered with a 2xx carries the error body, whose shape the document does not show.
  if (!schema || ex.refusal) return;
  if (!hasBody || ex.jsonError) {
    const reason = hasBody ? `body is not JSON (${ex.jsonError})` : 'body is empty';
    sink(schema.rootRequirement, false, `${where}: ${reason}, a JSON body is required`, ex, { schemaError: reason });
    return;
  }
  const outcome = schema.validate(ex.json);
  const failing = new Set(outcome.findings.map((f) => f.requirement));
  for (const f of outcome.findings) sink(f.requirement, false, `${where}: ${f.message}`, ex, { schemaError: f.message });
  for (const r of outcome.exercised) if (!failing.has(r)) sink(r, true, `${opId} ${ex.status} body matches the schema`, ex);
}
