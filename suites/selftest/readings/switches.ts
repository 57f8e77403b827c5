import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { ApiHandler } from '../../../reference-impl/http/types';
import type { Settings } from '../../core/settings';
import { opsVariants } from '../variants/ops';
import { stacksVariants, type Variant } from '../variants/stacks';
import { laggingReads } from './lag';
import { refusalsIn200 } from './refusals';

export type ReadingApi = 'stacks' | 'ops';

/** One entry of specs/readings.yaml. */
export interface Reading {
  id: string;
  apis: ReadingApi[];
  topic: string;
  says?: string;
  silent?: string;
  reading: string;
  switch: string;
}

const READINGS_FILE = join(dirname(fileURLToPath(import.meta.url)), '../../../specs/readings.yaml');
export const readings = (): Reading[] => parse(readFileSync(READINGS_FILE, 'utf8')) as Reading[];

/** How long the lagging reading keeps a write from its reads, and the settle bound the run is given for it. */
const LAG_MS = 250;

/** What a switch does to the reference and to the run: a handler wrapper, config, run settings, tolerated warnings. */
export interface Switch {
  wrap?: (inner: ApiHandler, config: never) => ApiHandler;
  config?: Record<string, unknown>;
  settings?: Partial<Settings>;
  warns?: string[];
}

/** The switches that are no variant of one API: readings every API's reference can take. */
const SHARED: Record<string, Switch> = {
  lag: { wrap: (inner) => laggingReads(inner, LAG_MS), settings: { settleS: 1, concurrency: 4 } },
  'refusals-200': { wrap: refusalsIn200 },
};

const VARIANTS: Record<ReadingApi, Variant<never>[]> = {
  ops: opsVariants as unknown as Variant<never>[],
  stacks: stacksVariants as unknown as Variant<never>[],
};

/** The switch a reading names for an API, or undefined when there is none (a register entry without its switch). */
export function switchOf(api: ReadingApi, name: string): Switch | undefined {
  const variant = VARIANTS[api].find((v) => v.id === name);
  if (variant)
    return {
      wrap: variant.wrap,
      config: variant.config as Record<string, unknown> | undefined,
      settings: variant.settings,
      warns: variant.warns,
    };
  return SHARED[name];
}

export const variantIds = (api: ReadingApi) => VARIANTS[api].map((v) => v.id);

/** Several switches at once: the wrappers applied in turn, configs and settings merged, warnings pooled. */
export function combined(switches: Switch[]): Switch {
  return {
    wrap: (inner, config) => switches.reduce((h, s) => (s.wrap ? s.wrap(h, config) : h), inner),
    config: Object.assign({}, ...switches.map((s) => s.config ?? {})),
    settings: Object.assign({}, ...switches.map((s) => s.settings ?? {})),
    warns: switches.flatMap((s) => s.warns ?? []),
  };
}
