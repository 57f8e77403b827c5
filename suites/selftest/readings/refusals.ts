import type { ApiHandler } from '../../../reference-impl/http/types';

/**
 * Every refusal answered 200 with `{"success": false, "message": ...}`, as some deployments of a product whose
 * document does not show status codes answer: the body says it refused, the status line does not.
 */
export function refusalsIn200(inner: ApiHandler): ApiHandler {
  return async (req) => {
    const res = await inner(req);
    if (res.status < 400) return res;
    const body = res.body as { message?: unknown; error?: unknown } | undefined;
    const message = String(body?.message ?? body?.error ?? res.rawBody ?? `refused (${res.status})`);
    return { status: 200, body: { success: false, message }, headers: { 'content-type': 'application/json' } };
  };
}
