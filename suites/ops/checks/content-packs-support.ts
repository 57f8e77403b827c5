import { inSomeOrder } from '../collation';
import type { Exchange } from '../../core/types';
import { absentFields, schemaFindings, type Doc, type OpsContext } from '../support';
import { isDoc } from '../../core/json';

/** What the content-pack checks share: reading the library, its packs and their previews. */
export const docs = (v: unknown): Doc[] => (Array.isArray(v) ? v.filter(isDoc) : []);
export const str = (v: unknown): v is string => typeof v === 'string';
export const shown = (ex: Exchange) => `${ex.status} ${ex.text.slice(0, 160)}`;
export const member = (ex: Exchange, name: string): unknown => (isDoc(ex.json) ? ex.json[name] : undefined);
const isOn = (v: unknown) => v === 1 || v === true || v === '1' || v === 'true';
/**
 * Whether an installed object is enabled, by the field it shows it in. The document names no state field of an
 * installed service or correlation search ("installs … enabled"); a saved search's configuration holds `disabled`
 * (the action configuration lists it), so either `enabled` or its inverse `disabled`; undefined where it shows neither.
 */
export const enabledOf = (d: Doc | undefined): boolean | undefined =>
  d?.enabled !== undefined ? isOn(d.enabled) : d?.disabled !== undefined ? !isOn(d.disabled) : undefined;

/**
 * Reads identifiers an install result reports as the pack names them. The document: "prefix added to each installed
 * object": a server may add the install's prefix to the identifiers it reports as well as to the titles.
 */
function packIdReader(ex: Exchange): (id: unknown) => string {
  let prefix = '';
  try {
    const sent: unknown = JSON.parse(ex.request.body ?? '{}');
    if (isDoc(sent) && typeof sent.prefix === 'string') prefix = sent.prefix;
  } catch {
    // Not a JSON body: no prefix was sent.
  }
  return (id) => {
    const s = String(id);
    return prefix !== '' && s.startsWith(prefix) ? s.slice(prefix.length) : s;
  };
}

/** `success` as `group/identifier` entries, identifiers as the pack names them. */
export function successEntries(ex: Exchange): { group: string; id: string }[] {
  const asPackId = packIdReader(ex);
  return docs(member(ex, 'success')).flatMap((g) =>
    Object.entries(g).flatMap(([group, items]) => docs(items).map((e) => ({ group, id: asPackId(e.id) }))),
  );
}
/** Identifiers `success` reports installed, whatever group it files them under. */
export const successIds = (ex: Exchange) => successEntries(ex).map((e) => e.id);
/** `failure` entries, each with the identifier as the pack names it under `packId`. */
export function failures(ex: Exchange): (Doc & { packId: string })[] {
  const asPackId = packIdReader(ex);
  return docs(member(ex, 'failure')).map((f) => Object.assign({}, f, { packId: asPackId(f.id) }));
}
export const failuresFor = (ex: Exchange, id: string) => failures(ex).filter((f) => f.packId === id);

export const listPacks = (ctx: OpsContext, query: Record<string, string | number | undefined> = {}) =>
  ctx.http.send('contentPackList', { query });
/** The list's `{success, failure}`; some releases wrap it in `{items: {...}}` (seen in the field), which is read the same. */
export const libraryOf = (ex: Exchange): Doc => {
  const items = member(ex, 'items');
  return isDoc(items) && member(ex, 'success') === undefined ? items : isDoc(ex.json) ? ex.json : {};
};
export const packsOf = (ex: Exchange) => docs(libraryOf(ex).success);
/**
 * How a listed pack is told apart: by id and version, since each entry is "a content pack" and a pack has a
 * version; a library may list two versions of one pack as two entries with the same id.
 */
export const idsOf = (packs: Doc[]) => packs.map((p) => (p.version === undefined ? String(p.id) : `${String(p.id)}@${String(p.version)}`));
export const failuresOf = (ex: Exchange) => {
  const f = libraryOf(ex).failure;
  return Array.isArray(f) ? f.map((e) => JSON.stringify(e)).sort() : undefined;
};
export const packParams = (p: Doc) => ({ name: String(p.id), version: String(p.version) });
/**
 * Packs whose installed_versions is not an array: "`installed_versions` (array, empty when not installed)" gives an
 * array in every state, the empty one when the pack is not installed (never null, nor left out).
 */
export const notArrayVersions = (packs: Doc[]) => idsOf(packs.filter((p) => !Array.isArray(p.installed_versions)));

/**
 * A preview's saved_searches member, read both ways its sentence allows ("A `saved_searches` member has
 * `has_saved_searches` and `has_consistent_status`", after "each value is an array of entries"): an object holding the
 * two booleans, or an array of entries each holding them. Undefined when it is neither; else `has` says whether it
 * reports saved searches in the pack.
 */
export function savedSearchesOf(preview: unknown): { has: boolean } | undefined {
  const member = isDoc(preview) ? preview.saved_searches : undefined;
  const flagged = (d: unknown): d is Doc =>
    isDoc(d) && typeof d.has_saved_searches === 'boolean' && typeof d.has_consistent_status === 'boolean';
  if (flagged(member)) return { has: member.has_saved_searches === true };
  if (Array.isArray(member) && member.every(flagged)) return { has: member.some((e) => e.has_saved_searches === true) };
  return undefined;
}
export const previewOf = (ctx: OpsContext, p: Doc) => ctx.http.send('contentPackPreview', { params: packParams(p) });

const PACK_FIELDS = [
  'id',
  'title',
  'description',
  'overview',
  'author',
  'version',
  'icon',
  'help_links',
  'installed_versions',
  'screenshots',
  'main_screenshot',
];

/**
 * A pack's documented fields: the types the ContentPack schema gives the members the sentence does not type (the
 * schema leaves every field optional); the document lists them all as fields of a pack, so an absent one is a problem too.
 */
export function packFieldProblems(p: Doc): string[] {
  const absent = absentFields(p, PACK_FIELDS, 'pack');
  const typed = schemaFindings('ContentPack', p).filter((f) => f.requirement === 'OPS-CP-FIELDS');
  return [...typed.map((f) => f.message), ...absent.map((f) => `${f} is absent`)].map((b) => `${String(p.id)}: ${b}`);
}

/** The shapes the sentence gives: help_links an array, screenshots an array of {path, thumb}, main_screenshot a {path, thumb}. */
export const packShapeProblems = (p: Doc): string[] =>
  schemaFindings('ContentPack', p)
    .filter((f) => f.requirement === 'OPS-CP-FIELD-SHAPES')
    .map((f) => `${String(p.id)}: ${f.message}`);

/** A list sorted in none of the collations a server may use is out of order. */
export const sortedIn = (values: string[], dir: 1 | -1) => inSomeOrder(values, dir);
