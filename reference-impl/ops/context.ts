import type { ApiRequest, ApiResponse } from '../http/types';
import type { Clock } from './clock';
import type { ContentPack, Doc, EpisodeAction, IconCategory, OpsConfig, OpsUser } from './config';
import type { FilterCompiler } from './filter';
import type { Store } from './store';

/** Everything one handler instance owns; two instances never share any of it. */
export interface OpsState {
  config: OpsConfig;
  store: Store;
  filters: FilterCompiler;
  clock: Clock;
  /** Last `mod_timestamp` handed out, in microseconds: each write gets a strictly later one. */
  lastMicros: number;
  catalogue: { packs: ContentPack[]; failures: Doc[]; removed: Set<string> };
  episodeActions: EpisodeAction[];
  iconCategories: IconCategory[];
}

export interface OpsCtx {
  req: ApiRequest;
  /** Decoded path parameters of the matched route. */
  params: Record<string, string>;
  user: OpsUser;
  state: OpsState;
}

export type OpsRouteFn = (ctx: OpsCtx) => ApiResponse;

/** A write time strictly after every earlier one, even when the clock stands still or steps back. */
export function nextWriteMicros(state: OpsState): number {
  const now = Math.floor(state.clock.now() * 1000);
  state.lastMicros = Math.max(now, state.lastMicros + 1);
  return state.lastMicros;
}
