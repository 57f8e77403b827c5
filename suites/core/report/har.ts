import { TOOL } from '../tool';
import type { Exchange } from '../types';

const pairs = (o: Record<string, string>) =>
  Object.entries(o).map(([name, value]) => ({ name, value: name.toLowerCase() === 'authorization' ? '***' : value }));

/** HAR 1.2 of the run's traffic; credentials are masked here and again over the whole file when it is written. */
export function toHar(exchanges: Exchange[]) {
  return {
    log: {
      version: '1.2',
      // Name and version from package.json (suites/cli/tool.ts), never a copy that falls behind a release.
      creator: { name: TOOL.name, version: TOOL.version },
      entries: exchanges.map((ex) => ({
        startedDateTime: new Date(ex.at ?? Date.now()).toISOString(),
        time: ex.ms,
        request: {
          method: ex.request.method,
          url: ex.request.url,
          httpVersion: 'HTTP/1.1',
          headers: pairs(ex.request.headers),
          queryString: [...new URL(ex.request.url).searchParams].map(([name, value]) => ({ name, value })),
          cookies: [],
          headersSize: -1,
          bodySize: ex.request.body?.length ?? 0,
          ...(ex.request.body !== undefined
            ? { postData: { mimeType: ex.request.headers['content-type'] ?? 'application/json', text: ex.request.body } }
            : {}),
        },
        response: {
          status: ex.status,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          headers: pairs(ex.headers),
          cookies: [],
          content: { size: ex.text.length, mimeType: ex.headers['content-type'] ?? '', text: ex.text },
          redirectURL: ex.headers.location ?? '',
          headersSize: -1,
          bodySize: ex.text.length,
        },
        cache: {},
        timings: { send: 0, wait: ex.ms, receive: 0 },
        comment: ex.operationId ?? '',
      })),
    },
  };
}
