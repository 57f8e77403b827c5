import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toHar } from '../../core/report/har';

describe('the HAR file', () => {
  it('names as its creator the tool and the version package.json gives', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    expect(toHar([]).log.creator).toEqual({ name: pkg.name, version: pkg.version });
  });
});
