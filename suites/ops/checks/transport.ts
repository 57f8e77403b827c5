import type { Check } from '../../core/check';

export const servedOverHttps: Check = {
  id: 'ops.transport.https',
  title: 'The API MUST be served over HTTPS on the management port',
  requirements: ['OPS-AUTH-HTTPS', 'OPS-ADDR-BASE-FORM'],
  async run(ctx) {
    const url = new URL(ctx.target.directUrl ?? ctx.target.baseUrl);
    ctx.assert('OPS-AUTH-HTTPS', url.protocol === 'https:', `the target is addressed as ${url.protocol}//`);
    ctx.observe('OPS-AUTH-HTTPS', `management port ${url.port || '443'}${url.port === '8089' ? ' (the documented default)' : ' (not the documented 8089)'}`);
    const ex = await ctx.http.send('coreGetSupportedObjectTypes');
    const path = new URL(ex.request.url).pathname;
    ctx.assert('OPS-ADDR-BASE-FORM', ex.status >= 200 && ex.status < 300 && /^\/servicesNS\/[^/]+\/[^/]+\/itoa_interface\//.test(path), `${path} answered ${ex.status}`, ex);
  },
};
