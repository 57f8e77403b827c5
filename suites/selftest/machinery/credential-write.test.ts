import { describe, expect, it } from 'vitest';
import type { ApiHandler, ApiRequest } from '../../../reference-impl/http/types';
import { UsageError } from '../../core/api';
import { probeCredentials } from '../../core/conformance';
import { createTransport } from '../../core/transport';
import type { Target } from '../../core/types';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { stacksApi } from '../../stacks/index';
import { embeddedStacksTarget } from '../../stacks/target';

/** The probe's one line, or undefined when the probe lets the run go on. */
async function probeLine(def: typeof opsApi, target: Target): Promise<string | undefined> {
  try {
    await probeCredentials(def, target, 5_000, 'cfprobetest');
    return undefined;
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
}

/** A deployment as a user names it: the embedded server with the roles given, in the order given. */
const named = (live: Target, principals: Target['principals']): Target => ({ ...live, principals, embedded: false, close: undefined });

describe('a write user that cannot write ends the run in one line, before any check', () => {
  it('the read-only user given as the user with write access', async () => {
    const live = await embeddedOpsTarget();
    try {
      expect(await probeLine(opsApi, named(live, { primary: live.principals.readonly }))).toBe(
        "OPS_USERNAME/OPS_PASSWORD cannot write: POST /servicesNS/nobody/SA-ITOA/itoa_interface/service (an object of the run's own) answered 403 Forbidden; the run needs a user with write access there (a read-only user goes in OPS_READONLY_USERNAME and OPS_READONLY_PASSWORD)",
      );
    } finally {
      await live.close?.();
    }
  });

  it('a user who can write: one create of an object tagged with the run tag and the delete of its key, nothing else', async () => {
    const seen: ApiRequest[] = [];
    const record =
      (inner: ApiHandler): ApiHandler =>
      (req) => {
        seen.push(req);
        return inner(req);
      };
    const live = await embeddedOpsTarget(record);
    try {
      expect(
        await probeLine(opsApi, named(live, { primary: live.principals.primary, readonly: live.principals.readonly })),
      ).toBeUndefined();
      const writes = seen.filter((r) => r.method !== 'GET');
      expect(writes.map((r) => r.method)).toEqual(['POST', 'DELETE']);
      expect(writes[0].body).toEqual({ title: 'cfprobetest credential probe' });
      // The delete names the key the create answered, and the object is gone afterwards.
      const key = decodeURIComponent(writes[1].path.split('/').at(-1)!);
      const transport = createTransport({ timeoutMs: 5_000, maxBodyBytes: 1 << 20, tlsInsecure: true });
      try {
        const after = await transport.send({
          method: 'GET',
          url: `${live.baseUrl}/servicesNS/nobody/SA-ITOA/itoa_interface/service/${encodeURIComponent(key)}`,
          headers: { authorization: live.principals.primary.authorization! },
        });
        expect(after.status).toBe(404);
      } finally {
        transport.close();
      }
      // Besides: one read per user.
      expect(seen.filter((r) => r.method === 'GET').length).toBe(3);
    } finally {
      await live.close?.();
    }
  });
});

describe('an address that holds the other API blames the address, not the credential', () => {
  it('OPS_BASE_URL pointed at the stack server', async () => {
    const stacks = await embeddedStacksTarget();
    const ops = await embeddedOpsTarget();
    try {
      expect(await probeLine(opsApi, { ...named(ops, ops.principals), baseUrl: stacks.baseUrl })).toBe(
        `no ops API at ${stacks.baseUrl}: GET /servicesNS/nobody/SA-ITOA/itoa_interface/get_supported_object_types with OPS_USERNAME/OPS_PASSWORD answered 401 Unauthorized the way the stack provisioning API does (it asks for a bearer API key): check the address (OPS_BASE_URL)`,
      );
      expect(await probeLine(stacksApi, { ...named(stacks, stacks.principals), baseUrl: ops.baseUrl, tlsInsecure: true })).toBe(
        `no stacks API at ${ops.baseUrl}: GET /v1/stacks with STACKS_API_KEY answered 401 Unauthorized the way the operations management API does (it asks for basic authentication): check the address (STACKS_BASE_URL)`,
      );
    } finally {
      await Promise.all([stacks.close?.(), ops.close?.()]);
    }
  });

  it("a refusal of the API's own kind still blames the credential", async () => {
    const ops = await embeddedOpsTarget();
    try {
      const wrong = { ...ops.principals.primary, authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` };
      expect(await probeLine(opsApi, named(ops, { primary: wrong }))).toBe('OPS_USERNAME/OPS_PASSWORD was refused: 401 Unauthorized');
    } finally {
      await ops.close?.();
    }
  });
});
