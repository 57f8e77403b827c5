// Content pack library: list, one pack version, preview, install and refresh.
import { GLOBAL_TEAM, requireTeamWrite, requireWriter } from './auth.mjs';
import { bug } from './bugs.mjs';
import { clone, isPlainObject, notAllowed, notFound, truthy } from './http.mjs';
import { pageRows, sortRows } from './query.mjs';
import { GROUP_TARGETS, SEED_FAILURES, SEED_PACKS, TYPE_TO_GROUP } from './seed-packs.mjs';
import { collection, SCHEMA_VERSION } from './store.mjs';
import { isoStamp, modTime } from './time.mjs';

const library = new Map(SEED_PACKS.map((p) => [p.id, clone(p)]));
const failures = clone(SEED_FAILURES);
const installed = new Map();
const revisions = new Map();

function cmpVersion(a, b) {
  const pa = String(a).split('.').map(Number);
  const pb = String(b).split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d) return d;
  }
  return 0;
}

function versionsOf(pack) {
  return Object.keys(pack.versions).sort(cmpVersion);
}

function entry(pack, version) {
  const id = `${pack.id}@${version}`;
  const rev = (revisions.get(id) || 0) + 1;
  revisions.set(id, rev);
  return {
    id: pack.id,
    title: pack.title,
    description: pack.description,
    overview: pack.overview,
    author: pack.author,
    version,
    icon: pack.icon,
    help_links: clone(pack.help_links),
    installed_versions: [...(installed.get(pack.id) || [])],
    screenshots: clone(pack.screenshots),
    main_screenshot: clone(pack.main_screenshot),
    _revision: rev,
    _read_at: isoStamp(),
  };
}

function findVersion(id, version) {
  const pack = library.get(id);
  if (!pack) throw notFound(`content pack ${id}`);
  const versions = versionsOf(pack);
  const v = version === undefined || version === 'latest' ? versions[versions.length - 1] : version;
  if (!pack.versions[v]) throw notFound(`version ${version} of content pack ${id}`);
  return { pack, version: v, contents: pack.versions[v] };
}

function listLibrary(q) {
  const rows = [];
  for (const pack of library.values()) for (const v of versionsOf(pack)) rows.push({ pack, v });
  rows.reverse();
  const entries = rows.map((r) => entry(r.pack, r.v));
  const sorted = sortRows(entries, q.get('sort_key'), q.get('sort_dir'));
  return { success: pageRows(sorted, q.get('count') ?? q.get('limit'), q.get('offset'), { countParam: true }), failure: clone(failures) };
}

function existing(group, id) {
  const t = GROUP_TARGETS[group];
  return t ? collection(t.space, t.type).has(id) : false;
}

function preview(id, version) {
  const { contents } = findVersion(id, version);
  const out = {};
  for (const [group, items] of Object.entries(contents)) {
    out[group] = items.map((it) => {
      const e = {
        id: it.id,
        title: it.title,
        description: it.description,
        entitlement_status: true,
        installed: existing(group, it.id),
        has_dependency: Array.isArray(it.depends_on) && it.depends_on.length > 0,
      };
      if (e.has_dependency) e.depends_on = [...it.depends_on];
      if (group === 'saved_searches') {
        e.has_saved_searches = true;
        e.has_consistent_status = true;
      }
      return e;
    });
  }
  return out;
}

/** Selected ids per group; null selects everything. Unknown ids are simply not found later. */
function selection(content) {
  if (content === undefined || content === null || content === '') return null;
  let c = content;
  if (typeof c === 'string') {
    try {
      c = JSON.parse(c);
    } catch {
      c = c.split(',').map((s) => s.trim());
    }
  }
  const sel = new Map();
  const add = (group, ids) => {
    const set = sel.get(group) || new Set();
    for (const id of Array.isArray(ids) ? ids : [ids]) set.add(String(isPlainObject(id) ? (id.id ?? id._key) : id));
    sel.set(group, set);
  };
  if (Array.isArray(c)) add('*', c);
  else if (isPlainObject(c)) for (const [k, ids] of Object.entries(c)) add(TYPE_TO_GROUP[k] || k, ids);
  else return null;
  const total = [...sel.values()].reduce((n, s) => n + s.size, 0);
  return total === 0 ? null : sel;
}

function selectedItems(contents, sel) {
  const picked = new Map();
  for (const [group, items] of Object.entries(contents)) {
    for (const it of items) {
      if (sel === null || sel.get(group)?.has(it.id) || sel.get('*')?.has(it.id)) picked.set(`${group}/${it.id}`, { group, it });
    }
  }
  // a named service brings the services it depends on
  const services = contents.services || [];
  let grew = true;
  while (grew) {
    grew = false;
    for (const { group, it } of [...picked.values()]) {
      if (group !== 'services') continue;
      for (const dep of it.depends_on || []) {
        const d = services.find((s) => s.id === dep);
        if (d && !picked.has(`services/${dep}`)) {
          picked.set(`services/${dep}`, { group: 'services', it: d });
          grew = true;
        }
      }
    }
  }
  return [...picked.values()];
}

function buildObject(group, it, packId, opts) {
  const title = bug('install-ignores-prefix') ? it.title : `${opts.prefix}${it.title}`;
  const now = isoStamp();
  const row = {
    _key: it.id,
    title,
    identifying_name: title.toLowerCase(),
    description: it.description,
    sec_grp: GLOBAL_TEAM,
    content_pack_id: packId,
    _version: SCHEMA_VERSION,
  };
  Object.assign(row, {
    mod_source: 'content_pack',
    mod_timestamp: now,
    mod_time: modTime(),
    create_time: now,
    create_source: 'content_pack',
    create_by: opts.user,
    _user: 'nobody',
  });
  const enabledParam =
    opts.enabled === undefined || opts.enabled === null || opts.enabled === '' ? bug('install-enabled-by-default') : truthy(opts.enabled);
  if (group === 'services') {
    row.object_type = 'service';
    row.enabled = enabledParam ? 1 : 0;
    row.entity_rules = [];
    row.services_depends_on = (it.depends_on || []).map((serviceid) => ({ serviceid, kpis_depending_on: [] }));
    row.kpis = (it.kpis || []).map((t, i) => ({
      _key: `${it.id}_kpi_${i}`,
      title: t,
      service_id: it.id,
      backfill_enabled: opts.backfill,
      type: 'kpis_primary',
      urgency: 5,
    }));
    row.kpis.push({
      _key: `SHKPI-${it.id}`,
      title: 'ServiceHealthScore',
      service_id: it.id,
      type: 'service_health',
      backfill_enabled: false,
      urgency: 11,
    });
    row.backfill_enabled = opts.backfill;
  } else if (group === 'correlation_searches' || group === 'aggregation_policies') {
    row.object_type = group === 'correlation_searches' ? 'correlation_search' : 'notable_aggregation_policy';
    row.disabled = enabledParam ? 0 : 1;
    row.enabled = enabledParam ? 1 : 0;
  } else {
    row.object_type = GROUP_TARGETS[group].type;
    if (it.enabled !== undefined) row.enabled = it.enabled;
  }
  return row;
}

function install(user, id, version, body) {
  requireTeamWrite(user, GLOBAL_TEAM);
  const { pack, version: v, contents } = findVersion(id, version);
  const b = isPlainObject(body) ? body : {};
  const opts = {
    user: user.name,
    prefix: b.prefix === undefined || b.prefix === null ? '' : String(b.prefix),
    enabled: b.enabled,
    backfill: b.backfill === undefined || b.backfill === null || b.backfill === '' ? true : truthy(b.backfill),
  };
  const resolution = typeof b.resolution === 'string' ? b.resolution.toLowerCase() : '';
  const success = new Map();
  const failure = [];
  const saved = { action_performed: truthy(b.enabled) ? 'enable' : 'keep', success: [], failure: [] };
  let touchedSaved = false;
  for (const { group, it } of selectedItems(contents, selection(b.content))) {
    const target = GROUP_TARGETS[group];
    const coll = collection(target.space, target.type);
    const there = coll.has(it.id);
    if (there && resolution === 'skip' && !bug('install-skip-overwrites')) continue;
    if (there && resolution !== 'overwrite' && resolution !== 'skip') {
      failure.push({ content_type: group, id: it.id, title: it.title, type: 'OBJECT_ALREADY_EXISTS' });
      continue;
    }
    const row = buildObject(group, it, pack.id, opts);
    const old = coll.get(it.id);
    if (old) Object.assign(row, { _revision: old._revision, create_time: old.create_time });
    coll.put(row);
    if (group === 'saved_searches') {
      touchedSaved = true;
      saved.success.push(it.title);
    }
    if (!success.has(group)) success.set(group, []);
    success.get(group).push({ id: it.id, title: row.title });
  }
  const versions = installed.get(pack.id) || [];
  if (!versions.includes(v)) versions.push(v);
  installed.set(pack.id, versions.sort(cmpVersion));
  const result = { success: [...success].map(([group, list]) => ({ [group]: list })), failure };
  if (touchedSaved) result.saved_searches = saved;
  return result;
}

function refresh(user, body) {
  requireWriter(user);
  const b = isPlainObject(body) ? body : {};
  const out = { success: { apps_added: [], apps_removed: [] }, failed: { apps_added: [], apps_removed: [] } };
  const list = (v) => (Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : String(v).split(','));
  for (const app of list(b.apps_added)) {
    if (typeof app !== 'string' || app.trim() === '') {
      out.failed.apps_added.push(String(app));
      continue;
    }
    const name = app.trim();
    if (!library.has(name)) {
      const p = {
        id: name,
        title: name,
        description: '',
        overview: '',
        author: '',
        icon: null,
        help_links: [],
        screenshots: [],
        main_screenshot: { path: '', thumb: '' },
        versions: { '1.0.0': {} },
      };
      library.set(name, p);
    }
    out.success.apps_added.push(name);
  }
  for (const app of list(b.apps_removed)) {
    const name = String(app).trim();
    if (library.delete(name)) out.success.apps_removed.push(name);
    else out.failed.apps_removed.push(name);
  }
  return out;
}

export function handleLibrary(ctx, rest) {
  const { method, q, body, user } = ctx;
  const ok = (b) => ({ status: 200, body: b });
  if (rest.length === 0) {
    if (method === 'GET') return ok(listLibrary(q));
    throw notAllowed();
  }
  if (rest.length === 1 && rest[0] === 'refresh') {
    if (method === 'POST') return ok(refresh(user, body));
    throw notAllowed();
  }
  const [id, version, action] = rest;
  if (rest.length <= 2 && method === 'GET') {
    const f = findVersion(id, version);
    return ok(entry(f.pack, f.version));
  }
  if (rest.length === 3 && action === 'preview' && method === 'GET') return ok(preview(id, version));
  if (rest.length === 3 && action === 'install' && method === 'POST') return ok(install(user, id, version, body));
  throw notFound(`path content_pack/${rest.join('/')}`);
}
