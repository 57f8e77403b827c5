import { isoWithOffset, spacedTimeMicros, type Clock } from './clock';
import type { Doc, OpsConfig } from './config';
import { nextWriteMicros, type OpsState } from './context';
import { createFilterCompiler } from './filter';
import { ICON_COLLECTION, flavorOf } from './object-types';
import { createStore } from './store';

/** Completes a seed object with the common fields it leaves out, as if it had been written over the API. */
function completeSeed(state: OpsState, type: string, seed: Doc): Doc {
  const { config } = state;
  const micros = nextWriteMicros(state);
  const doc: Doc = {
    _user: 'nobody',
    _owner: 'nobody',
    _version: config.schemaVersion,
    mod_source: 'REST',
    mod_timestamp: isoWithOffset(micros),
    sec_grp: config.defaultSecurityGroup,
    ...seed,
    object_type: type,
  };
  if (typeof doc.title === 'string' && doc.identifying_name === undefined) doc.identifying_name = doc.title.toLowerCase();
  const flavor = flavorOf(type);
  if (flavor === 'entity') {
    doc._type = 'entity';
    doc.create_time ??= isoWithOffset(micros);
    doc.mod_time ??= spacedTimeMicros(micros);
  } else if (flavor === 'event') {
    doc.create_time ??= micros / 1_000_000;
    doc.mod_time ??= micros / 1_000_000;
  }
  return doc;
}

/** A fresh, independent state from the config's seed. */
export function createState(config: OpsConfig, clock: Clock): OpsState {
  const seed = structuredClone(config.seed);
  const state: OpsState = {
    config,
    store: createStore(),
    filters: createFilterCompiler(config.regexMaxPatternLength),
    clock,
    lastMicros: 0,
    catalogue: { packs: seed.contentPacks.packs, failures: seed.contentPacks.failures, removed: new Set() },
    episodeActions: seed.episodeActions,
    iconCategories: seed.iconCategories,
  };
  for (const [type, docs] of Object.entries(seed.objects)) {
    for (const d of docs) state.store.put(type, completeSeed(state, type, d));
  }
  for (const icon of seed.icons) state.store.put(ICON_COLLECTION, icon);
  return state;
}
