import type { Exchange } from '../../core/types';
import type { Doc, OpsContext } from '../support';
import { isDoc } from '../../core/json';

/** What the content-pack checks share: reading the library, its packs and their previews. */
export const docs = (v: unknown): Doc[] => (Array.isArray(v) ? v.filter(isDoc) : []);
export const str = (v: unknown): v is string => typeof v === 'string';
export const shown = (ex: Exchange) => `${ex.status} ${ex.text.slice(0, 160)}`;
export const member = (ex: Exchange, name: string): unknown => (isDoc(ex.json) ? ex.json[name] : undefined);


export const listPacks = (ctx: OpsContext, query: Record<string, string | number | undefined> = {}) => ctx.http.send('contentPackList', { query });
/** The list's `{success, failure}`; some releases wrap it in `{items: {...}}` (seen in the field), which is read the same. */
export const libraryOf = (ex: Exchange): Doc => {
  const items = member(ex, 'items');
  return isDoc(items) && member(ex, 'success') === undefined ? items : isDoc(ex.json) ? ex.json : {};
};
export const packsOf = (ex: Exchange) => docs(libraryOf(ex).success);
export const idsOf = (packs: Doc[]) => packs.map((p) => String(p.id));
export const failuresOf = (ex: Exchange) => {
  const f = libraryOf(ex).failure;
  return Array.isArray(f) ? f.map((e) => JSON.stringify(e)).sort() : undefined;
};
export const packParams = (p: Doc) => ({ name: String(p.id), version: String(p.version) });
export const previewOf = (ctx: OpsContext, p: Doc) => ctx.http.send('contentPackPreview', { params: packParams(p) });

export function packFieldProblems(p: Doc): string[] {
  const bad: string[] = [];
  for (const f of ['id', 'title', 'description', 'overview', 'author', 'version', 'icon']) if (!str(p[f])) bad.push(`${f} is ${JSON.stringify(p[f])}`);
  for (const f of ['help_links', 'installed_versions', 'screenshots']) if (!Array.isArray(p[f])) bad.push(`${f} is ${JSON.stringify(p[f])}, not an array`);
  const shot = (s: unknown) => isDoc(s) && str(s.path) && str(s.thumb);
  if (Array.isArray(p.screenshots) && !p.screenshots.every(shot)) bad.push(`screenshots ${JSON.stringify(p.screenshots).slice(0, 120)} are not all {path, thumb}`);
  if (!shot(p.main_screenshot)) bad.push(`main_screenshot is ${JSON.stringify(p.main_screenshot)}`);
  return bad.map((b) => `${String(p.id)}: ${b}`);
}

/** Orders a server may reasonably sort strings in; a list sorted in none of them is out of order. */
const COLLATIONS: ((a: string, b: string) => number)[] = [
  (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  (a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0),
  (a, b) => a.localeCompare(b),
  (a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }),
];
export const sortedIn = (values: string[], dir: 1 | -1) => COLLATIONS.some((c) => values.every((v, i) => i === 0 || dir * c(values[i - 1], v) <= 0));
