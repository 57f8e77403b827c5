import type { ApiHandler, ApiRequest, ApiResponse } from '../../../../reference-impl/http/types';
import { mapRequest, mapResponse, withBody } from '../../fault';
import { opsPath, type OpsFault } from '../fault';
import { isDoc, type Doc } from '../../../core/json';

/** Path segments after `itoa_interface/content_pack`; undefined for any other path. */
function library(r: ApiRequest): string[] | undefined {
  const s = opsPath(r.path, 'itoa_interface');
  return s?.[0] === 'content_pack' ? s.slice(1) : undefined;
}
const isList = (r: ApiRequest) => r.method === 'GET' && library(r)?.length === 0;
const isRead = (r: ApiRequest) => r.method === 'GET' && library(r)?.length === 2 && library(r)![0] !== 'refresh';
const isPreview = (r: ApiRequest) => r.method === 'GET' && library(r)?.[2] === 'preview';
const isInstall = (r: ApiRequest) => r.method === 'POST' && library(r)?.[2] === 'install';
const isRefresh = (r: ApiRequest) => r.method === 'POST' && library(r)?.[0] === 'refresh' && library(r)?.length === 1;
const bodyOf = (r: ApiRequest): Doc => (isDoc(r.body) ? r.body : {});
const okAnswer = (res: ApiResponse) => res.status >= 200 && res.status < 300;

function withQuery(req: ApiRequest, change: (q: URLSearchParams) => void): ApiRequest {
  const query = new URLSearchParams(req.query);
  change(query);
  return { ...req, query };
}
const listQuery = (change: (q: URLSearchParams) => void) => mapRequest(isList, (r) => withQuery(r, change));
const installBody = (change: (b: Doc) => Doc) => mapRequest(isInstall, (r) => withBody(r, change({ ...bodyOf(r) })));

/** Another request from the same caller, sent straight to the implementation. */
const call = (inner: ApiHandler, req: ApiRequest, method: string, path: string, body?: unknown, query = '') =>
  inner({
    ...req,
    method,
    path,
    query: new URLSearchParams(query),
    body,
    rawBody: body === undefined ? '' : JSON.stringify(body),
    bodyError: undefined,
  });
const interfaceRoot = (r: ApiRequest) => r.path.replace(/\/content_pack(\/.*)?$/, '');

/** Rewrites every pack of a library list or single-read answer that `when` selects. */
const eachLibraryPack = (when: (r: ApiRequest) => boolean, change: (p: Doc) => void) =>
  mapResponse(
    (r, res) => when(r) && okAnswer(res),
    (res) => {
      const b = res.body as Doc;
      for (const p of Array.isArray(b.success) ? (b.success as Doc[]) : [b]) if (isDoc(p)) change(p);
      return res;
    },
  );

const ONLY_LIST = ['ops.content-packs.list'];
const ONLY_PREVIEW = ['ops.content-packs.preview'];
/** Rewrites every entry of the groups of a preview answer. */
const eachPreviewEntry = (change: (e: Doc) => void) =>
  mapResponse(
    (r, res) => isPreview(r) && okAnswer(res),
    (res) => {
      for (const [g, v] of Object.entries(res.body as Doc))
        if (g !== 'saved_searches' && Array.isArray(v)) for (const e of v) if (isDoc(e)) change(e);
      return res;
    },
  );
const ONLY_PAGING = ['ops.content-packs.list-paging'];
const ONLY_RESOLUTION = ['ops.content-packs.install-resolution'];
const ONLY_OPTIONS = ['ops.content-packs.install-options'];

export const contentPacksFaults: OpsFault[] = [
  {
    id: 'cp-list-desc-as-asc',
    description: 'the library list sorts ascending whatever sort_dir says',
    breaks: ['OPS-CP-LIST'],
    only: ONLY_PAGING,
    wrap: listQuery((q) => q.get('sort_dir') === 'desc' && q.set('sort_dir', 'asc')),
  },
  {
    id: 'cp-list-offset-off-by-one',
    description: 'the library list skips one pack more than offset asks',
    breaks: ['OPS-CP-LIST'],
    only: ONLY_PAGING,
    wrap: listQuery((q) => q.get('offset') !== null && q.set('offset', String(Number(q.get('offset')) + 1))),
  },
  {
    id: 'cp-list-count-ignored',
    description: 'the library list returns every pack whatever count says',
    breaks: ['OPS-CP-LIST'],
    only: ONLY_PAGING,
    wrap: listQuery((q) => q.delete('count')),
  },
  {
    id: 'cp-list-failures-paged',
    description: 'a paged library list reports no load failures',
    breaks: ['OPS-ERR-CP-LIST-FAILURES'],
    only: ONLY_PAGING,
    wrap: mapResponse(
      (r, res) => isList(r) && okAnswer(res) && (r.query.has('count') || r.query.has('offset')),
      (res) => ({ ...res, body: { ...(res.body as Doc), failure: [] } }),
    ),
  },
  {
    id: 'cp-list-failed-pack-in-success',
    description: 'packs that failed to load are listed in success as well as in failure',
    breaks: ['OPS-ERR-CP-LIST-FAILURES'],
    // The failure entry listed in success is no content pack: it carries no installed_versions array.
    collateral: ['OPS-CP-INSTALLED-VERSIONS-ARRAY'],
    only: ONLY_LIST,
    wrap: mapResponse(
      (r, res) => isList(r) && okAnswer(res),
      (res) => {
        const b = res.body as { success: Doc[]; failure: Doc[] };
        return { ...res, body: { ...b, success: [...b.success, ...b.failure] } };
      },
    ),
  },
  {
    id: 'cp-get-ignores-version',
    description: 'GET content_pack/<name>/<version> answers the pack of that name whatever the version',
    breaks: ['OPS-CP-GET'],
    only: ['ops.content-packs.get'],
    wrap: (inner) => async (req) => {
      const res = await inner(req);
      if (!isRead(req) || res.status !== 404) return res;
      const all = await call(inner, req, 'GET', req.path.replace(/\/[^/]+\/[^/]+$/, ''));
      const pack = ((all.body as { success?: Doc[] })?.success ?? []).find((p) => p.id === library(req)![0]);
      return pack ? { status: 200, body: pack } : res;
    },
  },
  {
    id: 'cp-preview-flags-as-strings',
    description: 'preview entries carry installed, entitlement_status and has_dependency as the strings "true"/"false"',
    breaks: ['OPS-CP-PREVIEW-ENTRY-FIELDS', 'OPS-CP-PREVIEW-ENTRY', 'OPS-CP-PREVIEW-OLDER-FORM'],
    only: ONLY_PREVIEW,
    wrap: mapResponse(
      (r, res) => isPreview(r) && okAnswer(res),
      (res) => {
        const body = res.body as Record<string, unknown>;
        for (const v of Object.values(body))
          if (Array.isArray(v))
            for (const e of v as Doc[])
              for (const f of ['installed', 'entitlement_status', 'has_dependency']) if (typeof e[f] === 'boolean') e[f] = String(e[f]);
        return res;
      },
    ),
  },
  {
    id: 'cp-preview-has-dependency-as-number',
    description: 'current-form preview entries carry has_dependency as 0 or 1 instead of a boolean',
    breaks: ['OPS-CP-PREVIEW-ENTRY-FIELDS'],
    only: ONLY_PREVIEW,
    wrap: eachPreviewEntry((e) => {
      if (typeof e.has_dependency === 'boolean') e.has_dependency = e.has_dependency ? 1 : 0;
    }),
  },
  {
    id: 'cp-preview-entry-without-description',
    description: 'preview entries leave out description',
    breaks: ['OPS-CP-PREVIEW-ENTRY-FIELDS'],
    only: ONLY_PREVIEW,
    wrap: eachPreviewEntry((e) => delete e.description),
  },
  {
    id: 'cp-preview-saved-searches-flag-string',
    description: 'the saved_searches member of a preview carries has_consistent_status as the string "true"',
    breaks: ['OPS-CP-PREVIEW-SAVED-SEARCHES-FLAGS'],
    only: ONLY_PREVIEW,
    wrap: mapResponse(
      (r, res) => isPreview(r) && okAnswer(res),
      (res) => {
        const s = (res.body as Doc).saved_searches;
        if (isDoc(s) && typeof s.has_consistent_status === 'boolean') s.has_consistent_status = String(s.has_consistent_status);
        return res;
      },
    ),
  },
  {
    id: 'cp-help-links-as-string',
    description: 'help_links of a pack is answered as one comma-separated string instead of an array',
    breaks: ['OPS-CP-FIELD-SHAPES'],
    only: ['ops.content-packs.list', 'ops.content-packs.get'],
    wrap: eachLibraryPack(
      (r) => isList(r) || isRead(r),
      (p) => {
        if (Array.isArray(p.help_links)) p.help_links = p.help_links.join(',');
      },
    ),
  },
  {
    id: 'cp-main-screenshot-without-thumb',
    description: 'a single read of a pack gives main_screenshot as {path} without thumb',
    breaks: ['OPS-CP-FIELD-SHAPES'],
    only: ['ops.content-packs.get'],
    wrap: eachLibraryPack(isRead, (p) => {
      if (isDoc(p.main_screenshot)) delete p.main_screenshot.thumb;
    }),
  },
  {
    id: 'cp-install-content-first-only',
    description: 'install with content installs only the first identifier of each list it names',
    breaks: ['OPS-CP-INSTALL-CONTENT'],
    only: ['ops.content-packs.install-content'],
    wrap: installBody((b) => {
      const content = b.content as Record<string, unknown> | undefined;
      if (!content || typeof content !== 'object') return b;
      return { ...b, content: Object.fromEntries(Object.entries(content).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, 1) : v])) };
    }),
  },
  {
    id: 'cp-install-prefix-ignored',
    description: 'install writes objects under their own titles, without the prefix',
    breaks: ['OPS-CP-INSTALL-PREFIX'],
    only: ONLY_OPTIONS,
    wrap: installBody(({ prefix: _prefix, ...b }) => b),
  },
  {
    id: 'cp-install-enabled-ignored',
    description: 'install always installs services disabled, whatever enabled says',
    breaks: ['OPS-CP-INSTALL-ENABLED'],
    only: ONLY_OPTIONS,
    wrap: installBody(({ enabled: _enabled, ...b }) => b),
  },
  {
    id: 'cp-install-enabled-by-default',
    description: 'install without enabled installs services enabled',
    breaks: ['OPS-CP-INSTALL-ENABLED'],
    only: ONLY_OPTIONS,
    wrap: installBody((b) => (b.enabled === undefined ? { ...b, enabled: 1 } : b)),
  },
  {
    id: 'cp-install-skip-as-overwrite',
    description: 'resolution=skip replaces installed objects like overwrite',
    breaks: ['OPS-CP-INSTALL-RESOLUTION'],
    only: ONLY_RESOLUTION,
    wrap: installBody((b) => (b.resolution === 'skip' ? { ...b, resolution: 'overwrite' } : b)),
  },
  {
    id: 'cp-install-overwrite-keeps-changes',
    description: 'resolution=overwrite keeps the fields changed since the last install that the pack does not define',
    breaks: ['OPS-CP-INSTALL-RESOLUTION'],
    only: ONLY_RESOLUTION,
    wrap: (inner) => async (req) => {
      if (!isInstall(req) || bodyOf(req).resolution !== 'overwrite') return inner(req);
      const content = bodyOf(req).content as Record<string, string[]> | undefined;
      const ids = (content?.service ?? content?.services ?? []).map(String);
      const at = (id: string) => `${interfaceRoot(req)}/service/${encodeURIComponent(id)}`;
      const before = await Promise.all(ids.map((id) => call(inner, req, 'GET', at(id))));
      const res = await inner(req);
      for (const [i, id] of ids.entries()) {
        const after = await call(inner, req, 'GET', at(id));
        if (before[i].status !== 200 || after.status !== 200) continue;
        const old = before[i].body as Doc;
        const kept = Object.fromEntries(Object.entries(old).filter(([k]) => (after.body as Doc)[k] === undefined));
        if (Object.keys(kept).length) await call(inner, req, 'POST', at(id), kept, 'is_partial_data=1');
      }
      return res;
    },
  },
  {
    id: 'cp-install-conflict-as-error',
    description: 'an install that meets an object that already exists answers 409 instead of reporting it in failure',
    breaks: ['OPS-ERR-CP-INSTALL-FAILURES'],
    only: ONLY_RESOLUTION,
    wrap: mapResponse(
      (r, res) =>
        isInstall(r) && okAnswer(res) && ((res.body as { failure?: Doc[] }).failure ?? []).some((f) => f.type === 'OBJECT_ALREADY_EXISTS'),
      () => ({ status: 409, body: { messages: [{ type: 'ERROR', text: 'Object already exists' }] } }),
    ),
  },
  {
    id: 'cp-install-conflict-unreported',
    description:
      'an install without resolution silently leaves out the objects that already exist, reporting them neither in success nor in failure',
    breaks: ['OPS-ERR-CP-INSTALL-FAILURES'],
    only: ONLY_RESOLUTION,
    wrap: mapResponse(
      (r, res) => isInstall(r) && okAnswer(res),
      (res) => {
        const b = res.body as { failure: Doc[] };
        return { ...res, body: { ...b, failure: b.failure.filter((f) => f.type !== 'OBJECT_ALREADY_EXISTS') } };
      },
    ),
  },
  {
    id: 'cp-install-conflict-type-renamed',
    description: 'an object that already exists is reported in failure with the type DUPLICATE instead of OBJECT_ALREADY_EXISTS',
    breaks: ['OPS-CP-INSTALL-FAILURE-TYPE'],
    only: ONLY_RESOLUTION,
    wrap: mapResponse(
      (r, res) => isInstall(r) && okAnswer(res),
      (res) => {
        for (const f of (res.body as { failure: Doc[] }).failure) if (f.type === 'OBJECT_ALREADY_EXISTS') f.type = 'DUPLICATE';
        return res;
      },
    ),
  },
  {
    id: 'cp-install-success-ungrouped',
    description: 'the install result lists installed objects as a flat array of {id, title}, not keyed by group',
    breaks: ['OPS-CP-INSTALL-RESULT'],
    only: ONLY_RESOLUTION,
    wrap: mapResponse(
      (r, res) => isInstall(r) && okAnswer(res),
      (res) => {
        const b = res.body as { success: Record<string, Doc[]>[] };
        return { ...res, body: { ...b, success: b.success.flatMap((g) => Object.values(g).flat()) } };
      },
    ),
  },
  {
    id: 'cp-install-content-ignored',
    description: 'install installs the whole pack whatever content names',
    breaks: ['OPS-CP-INSTALL-CONTENT'],
    only: ['ops.content-packs.install-content'],
    wrap: installBody(({ content: _content, ...b }) => b),
  },
  {
    id: 'cp-install-content-rest-installed-silently',
    description: 'install with content reports only the objects named, but installs the rest of the pack as well',
    breaks: ['OPS-CP-INSTALL-CONTENT'],
    only: ['ops.content-packs.install-content'],
    wrap: (inner) => async (req) => {
      const res = await inner(req);
      const { content, ...rest } = bodyOf(req);
      if (isInstall(req) && okAnswer(res) && content !== undefined)
        await call(inner, req, 'POST', req.path, { ...rest, resolution: 'skip' });
      return res;
    },
  },
  {
    id: 'cp-installed-versions-not-recorded',
    description: 'installed_versions stays empty after an install',
    breaks: ['OPS-CP-INSTALLED-VERSIONS'],
    only: ONLY_OPTIONS,
    wrap: mapResponse(
      (r, res) => (isList(r) || isRead(r)) && okAnswer(res),
      (res) => {
        const b = res.body as Doc;
        for (const p of Array.isArray(b.success) ? (b.success as Doc[]) : [b]) p.installed_versions = [];
        return res;
      },
    ),
  },
  {
    id: 'cp-installed-versions-null-when-empty',
    description: 'the list answers installed_versions null for a pack not installed, in place of the empty array',
    breaks: ['OPS-CP-INSTALLED-VERSIONS-ARRAY'],
    only: ONLY_LIST,
    wrap: eachLibraryPack(isList, (p) => {
      if (Array.isArray(p.installed_versions) && !p.installed_versions.length) p.installed_versions = null;
    }),
  },
  {
    id: 'cp-installed-versions-absent-in-read',
    description: 'a single read of a pack not installed leaves installed_versions out',
    breaks: ['OPS-CP-INSTALLED-VERSIONS-ARRAY'],
    only: ['ops.content-packs.get'],
    wrap: eachLibraryPack(isRead, (p) => {
      if (Array.isArray(p.installed_versions) && !p.installed_versions.length) delete p.installed_versions;
    }),
  },
  {
    id: 'cp-installed-versions-string-once-installed',
    description: 'a single read of an installed pack gives installed_versions as the one version string, not an array',
    breaks: ['OPS-CP-INSTALLED-VERSIONS-ARRAY'],
    only: ONLY_OPTIONS,
    wrap: eachLibraryPack(isRead, (p) => {
      if (Array.isArray(p.installed_versions) && p.installed_versions.length) p.installed_versions = p.installed_versions.join(',');
    }),
  },
  {
    id: 'cp-install-saved-searches-no-action',
    description: 'the saved_searches member of the install result leaves out action_performed',
    breaks: ['OPS-CP-INSTALL-SAVED-SEARCHES'],
    only: ONLY_OPTIONS,
    wrap: mapResponse(
      (r, res) => isInstall(r) && okAnswer(res),
      (res) => {
        delete ((res.body as Doc).saved_searches as Doc).action_performed;
        return res;
      },
    ),
  },
  {
    id: 'cp-refresh-without-failed',
    description: 'refresh answers only the apps it synchronized, without the failed member',
    breaks: ['OPS-CP-REFRESH'],
    only: ['ops.content-packs.refresh'],
    wrap: mapResponse(
      (r, res) => isRefresh(r) && okAnswer(res),
      (res) => ({ ...res, body: { success: (res.body as Doc).success } }),
    ),
  },
];
