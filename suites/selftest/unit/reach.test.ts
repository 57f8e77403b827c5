import { describe, expect, it } from 'vitest';
import { notReached, reachOf, reachText } from '../../core/reach';
import type { Exchange } from '../../core/types';

const exchange = (operationId: string, url: string): Exchange => ({
  operationId,
  request: { method: 'GET', url, headers: {} },
  status: 200,
  headers: {},
  text: '',
  ms: 1,
});
const vLatest = (ex: Exchange) => (ex.request.url.includes('/vLatest/') ? 'vLatest' : undefined);

describe('what an assertion reached', () => {
  it('is the operation, the query parameters sent (each once, sorted) and the path form', () => {
    const r = reachOf(exchange('coreList', 'https://h/x/itoa_interface/vLatest/service?sort_key=t&filter=%7B%7D&sort_key=u'), vLatest)!;
    expect(r).toEqual({ operation: 'coreList', params: ['filter', 'sort_key'], form: 'vLatest' });
    expect(reachText(r)).toBe('coreList ?filter&sort_key (vLatest)');
    expect(reachOf({ ...exchange('x', 'https://h/'), operationId: undefined })).toBeUndefined();
  });

  it('covers a governs entry by operation, by operation and parameter, or by operation and path form', () => {
    const reached = [
      { operation: 'coreList', params: ['filter', 'limit'] },
      { operation: 'coreGet', params: [], form: 'vLatest' },
    ];
    expect(notReached(['coreList', 'coreList?limit', 'coreGet@vLatest'], reached)).toEqual([]);
    expect(notReached(['coreList?offset', 'coreBulkDelete', 'coreList@vLatest', 'coreGet?fields'], reached)).toEqual([
      'coreList?offset',
      'coreBulkDelete',
      'coreList@vLatest',
      'coreGet?fields',
    ]);
    expect(() => notReached(['?limit'], reached)).toThrow(/not op, op\?param or op@form/);
  });
});
