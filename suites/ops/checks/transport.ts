import type { OpsCheck } from '../support';

export const servedOverHttps: OpsCheck = {
  id: 'ops.transport.https',
  title: 'The API MUST be served over HTTPS on the management port',
  requirements: ['OPS-AUTH-HTTPS', 'OPS-ADDR-BASE-FORM'],
  async run(ctx) {
    const url = new URL(ctx.target.directUrl ?? ctx.target.baseUrl);
    ctx.expect.equal('OPS-AUTH-HTTPS', 'the scheme the target is addressed with', url.protocol, 'https:');
    ctx.observe(
      'OPS-AUTH-HTTPS',
      `management port ${url.port || '443'}${url.port === '8089' ? ' (the documented default)' : ' (not the documented 8089)'}`,
    );
    const ex = await ctx.http.send('coreGetSupportedObjectTypes');
    const path = new URL(ex.request.url).pathname;
    ctx.expect.that(
      'OPS-ADDR-BASE-FORM',
      'get_supported_object_types at the base path',
      ex.status >= 200 && ex.status < 300 && /^\/servicesNS\/[^/]+\/[^/]+\/itoa_interface\//.test(path),
      { expected: 'a success at /servicesNS/<user>/<app>/itoa_interface/...', actual: `${ex.status} at ${path}` },
      ex,
    );
  },
};
