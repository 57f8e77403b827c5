import { compact } from '../../core/expect';
import { asDoc, isDoc } from '../../core/json';
import { need, Unmet } from '../../core/precondition';
import type { Exchange } from '../../core/types';
import { core, SERVICE } from '../collections';
import {
  absentFields,
  createIn,
  createNeeded,
  getIn,
  lackingFields,
  listIn,
  ok,
  rows,
  schemaFindings,
  tagged,
  type Doc,
  type OpsCheck,
  type OpsContext,
} from '../support';

const now = () => Math.floor(Date.now() / 1000);

/** A window of the run's own; it only ever links KPIs of services the run created, so it changes no real threshold. */
const CTW = core('custom_threshold_windows', () => ({
  description: 'conformance window',
  status: 'active',
  window_type: 'percentage',
  window_config_percentage: 10,
  window_config_static: {},
  start_time: now(),
  end_time: now() + 3600,
  duration: 3600,
  recurrence: false,
  is_overlapping: false,
  overlapping_kpis: [],
  linked_services: [],
}));

const PARAM_NAMES = ['ctw_id', 'custom_threshold_window_id'] as const;

interface Kpi {
  key: string;
  title: string;
}
interface OwnService {
  key: string;
  title: string;
  kpis: Kpi[];
}
type Links = { _key: string; kpi_ids: string[] }[];

/** A disabled service with `n` KPIs; the KPI keys are read back, since a server may assign its own. Unmet when it cannot be made. */
async function serviceWithKpis(ctx: OpsContext, name: string, n: number): Promise<OwnService> {
  const titles = Array.from({ length: n }, (_, i) => tagged(ctx, `${name} kpi ${i}`));
  const kpis = titles.map((title, i) => ({
    _key: `${ctx.options.runTag}_${name.replace(/\W/g, '_')}_k${i}`,
    title,
    type: 'kpis',
    threshold_field: 'count',
    search_type: 'adhoc',
  }));
  const made = await createNeeded(ctx, SERVICE, name, { kpis });
  const read = await getIn(ctx, SERVICE, made.key);
  const stored = rowsOf(read.json, 'kpis');
  const found = titles.map((t) => stored.find((k) => k.title === t)).filter((k): k is Doc => typeof k?._key === 'string');
  if (found.length !== n)
    throw new Unmet(`the service ${made.key}, created with ${n} KPIs, reads back ${found.length} of them with a key`, read);
  return { key: made.key, title: String(made.body.title), kpis: found.map((k) => ({ key: String(k._key), title: String(k.title) })) };
}

const rowsOf = (json: unknown, field: string): Doc[] => {
  const v = asDoc(json)[field];
  return Array.isArray(v) ? v.filter((d) => d && typeof d === 'object') : [];
};

/** A window of the run's own whose linked_services names the KPIs it is to be linked to. */
const windowFor = (ctx: OpsContext, name: string, links: Links) =>
  createNeeded(ctx, CTW, name, { linked_services: links.map((l) => ({ service_id: l._key, linked_kpi_ids: l.kpi_ids })) });

const answeredPairs = (ex: Exchange) =>
  rowsOf(ex.json, 'services').flatMap((s) => (Array.isArray(s.kpi_ids) ? s.kpi_ids.map((k) => `${String(s._key)}/${String(k)}`) : []));

/**
 * The document's payload is "key(s) of the window(s)" (the KPIs are the window's own linked_services); the other form
 * seen names them in the body as {services: [{_key, kpi_ids}]}. Both go with `ctw_id`. The first form whose answer
 * lists linked KPIs is the one judged; failing that the first accepted one, failing that the last answer.
 */
async function associate(ctx: OpsContext, window: string, links: Links): Promise<{ ex: Exchange; form: string }> {
  const forms: [string, unknown][] = [
    ['the window keys', [window]],
    ['{services: [{_key, kpi_ids}]}', { services: links }],
  ];
  const answers: { ex: Exchange; form: string }[] = [];
  for (const [form, body] of forms) {
    const ex = await ctx.http.send('ctwAssociateServiceKpi', { params: { object_id: window }, query: { ctw_id: window }, body });
    answers.push({ ex, form });
    if (ok(ex) && answeredPairs(ex).length) break;
  }
  return answers.find((a) => ok(a.ex) && answeredPairs(a.ex).length) ?? answers.find((a) => ok(a.ex)) ?? answers[answers.length - 1];
}

const disconnect = (ctx: OpsContext, window: string) =>
  ctx.http.send('ctwDisconnectKpis', { params: { object_id: window }, query: { ctw_id: window } });

/** linked_kpis with the window under the given parameter names (both unless told). */
const linkedKpis = (ctx: OpsContext, window: string, query: Record<string, number> = {}, names: readonly string[] = PARAM_NAMES) =>
  ctx.http.send('ctwLinkedKpis', { query: { ...Object.fromEntries(names.map((n) => [n, window])), ...query } });

const pairsOfLinks = (links: Links) => links.flatMap((s) => s.kpi_ids.map((k) => `${s._key}/${k}`)).sort();
const pairsOfRows = (ex: Exchange) =>
  rowsOf(ex.json, 'linked_kpis')
    .map((r) => `${String(r.service_key)}/${String(r.kpi_key)}`)
    .sort();
const sameSet = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
const show = (pairs: string[]) => (pairs.length ? pairs.join(', ') : '(none)');

/** The same stop time, in whatever precision the server answers each read with (within a second). */
const sameStamp = (a: unknown, b: unknown) => a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < 1);

const isLower = (s: unknown) => typeof s === 'string' && s === s.toLowerCase();

/** associate_service_kpi links `window` to its KPIs and answers those linked. */
async function judgeAssociate(ctx: OpsContext, window: string, links: Links): Promise<void> {
  // "(those linked)": every KPI the window is linked to, or only those this call linked; so the KPIs linked_kpis
  // already listed before the call may be left out, the others not, and no KPI the window does not name is listed.
  const prior = await linkedKpis(ctx, window);
  const before = ok(prior) ? pairsOfRows(prior) : [];
  const { ex, form } = await associate(ctx, window, links);
  const got = answeredPairs(ex);
  const want = pairsOfLinks(links);
  const fresh = want.filter((p) => !before.includes(p));
  const good = ok(ex) && fresh.every((p) => got.includes(p)) && got.every((p) => want.includes(p));
  ctx.expect.that(
    'OPS-CTW-ASSOCIATE',
    `associate_service_kpi for ${window} (payload ${form})`,
    good,
    {
      expected: `a success listing the window's KPIs ${show(want)} (at least ${show(fresh)}, not linked before the call)`,
      actual: `${ex.status} listing ${show(got)}`,
    },
    ex,
  );
  if (good && !sameSet([...new Set(got)], want))
    ctx.observe(
      'OPS-CTW-ASSOCIATE',
      `associate_service_kpi listed ${got.length} of the ${want.length} KPIs, leaving out those linked before the call`,
    );
  ctx.observe('OPS-CTW-ASSOCIATE', `associate_service_kpi was answered for the payload ${form}`);
}

/** Which of the parameter names alone selects the window's KPIs in linked_kpis: at least one of them must. */
async function judgeParamNames(ctx: OpsContext, window: string, links: Links): Promise<void> {
  const honoured: string[] = [];
  for (const name of PARAM_NAMES) {
    const ex = await linkedKpis(ctx, window, {}, [name]);
    const got = pairsOfRows(ex);
    const match = ok(ex) && sameSet(got, pairsOfLinks(links));
    if (match) honoured.push(name);
    ctx.observe(
      'OPS-CTW-LINKED-KPIS-PARAM',
      `linked_kpis with only ${name} answered ${ex.status} with ${got.length} KPIs${match ? ", exactly the window's" : ''}`,
    );
  }
  // Which name is not shown (OPS-CTW-LINKED-KPIS-PARAM, recorded above); that one of them works is the endpoint's rule.
  ctx.expect.that('OPS-CTW-LINKED-KPIS', "parameters that alone select the window's KPIs in linked_kpis", honoured.length > 0, {
    expected: `at least one of ${PARAM_NAMES.join(', ')}`,
    actual: compact(honoured),
  });
}

/**
 * linked_kpis of `window` lists exactly its KPIs, counted and named by their titles, and the window keeps the
 * association; returns whether linked_kpis listed them.
 */
async function judgeLinkedKpis(ctx: OpsContext, window: string, links: Links, services: Map<string, OwnService>): Promise<boolean> {
  const ex = await linkedKpis(ctx, window);
  const got = pairsOfRows(ex);
  const want = pairsOfLinks(links);
  const holds = ctx.expect.that(
    'OPS-CTW-LINKED-KPIS',
    `linked_kpis of ${window}`,
    ok(ex) && sameSet(got, want),
    { expected: `a success with ${show(want)}`, actual: `${ex.status} with ${show(got)}` },
    ex,
  );
  ctx.expect.equal(
    'OPS-CTW-LINKED-KPIS',
    'count of linked_kpis with every entry returned, against the entries',
    asDoc(ex.json).count,
    got.length,
    ex,
  );
  const wrong = rowsOf(ex.json, 'linked_kpis').filter((r) => {
    const s = services.get(String(r.service_key));
    return !s || r.service_title !== s.title || r.kpi_title !== s.kpis.find((k) => k.key === r.kpi_key)?.title;
  });
  ctx.expect.equal('OPS-CTW-LINKED-KPIS', 'linked_kpis entries that do not name their KPI and service by their titles', wrong, [], ex);
  const stored = rowsOf((await getIn(ctx, CTW, window)).json, 'linked_services');
  const storedPairs = stored.flatMap((l) =>
    Array.isArray(l.linked_kpi_ids) ? l.linked_kpi_ids.map((k) => `${String(l.service_id)}/${String(k)}`) : [],
  );
  const inLinks = sameSet([...new Set(storedPairs)], want);
  ctx.expect.equal(
    'OPS-CTW-FIELDS',
    `linked_services entries of ${window} not of the form {service_id, linked_kpi_ids: [string]}`,
    unshapedEntries(stored),
    [],
  );
  ctx.expect.that('OPS-CTW-FIELDS', `linked_services of ${window}`, inLinks, { expected: show(want), actual: show(storedPairs) });
  // The association must be kept: it shows in one read of the window or the other.
  ctx.expect.that(
    'OPS-CTW-ASSOCIATE',
    `${window} after associate_service_kpi, in linked_services or linked_kpis`,
    inLinks || (ok(ex) && sameSet(got, want)),
    { expected: show(want), actual: `${show(storedPairs)} in linked_services; ${show(got)} in linked_kpis` },
    ex,
  );
  return holds;
}

/** linked_kpis lists at most `limit` of the window's KPIs, all of them for limit=0, none of a window without any (`all`: the window's). */
async function judgeLimits(ctx: OpsContext, window: string, all: string[]): Promise<void> {
  for (const limit of [1, 2]) {
    const ex = await linkedKpis(ctx, window, { limit });
    const got = pairsOfRows(ex);
    const good = ok(ex) && got.length > 0 && got.length <= limit && got.every((p) => all.includes(p));
    ctx.expect.that(
      'OPS-CTW-LINKED-KPIS',
      `linked_kpis with limit=${limit}`,
      good,
      { expected: `a success with 1 to ${limit} of ${show(all)}`, actual: `${ex.status} with ${show(got)}` },
      ex,
    );
    ctx.observe('OPS-CTW-LINKED-KPIS', `with limit=${limit}, count is ${JSON.stringify(asDoc(ex.json).count)} (${all.length} linked)`);
  }
  // A window written without linked_services has nothing linked, and says so in the documented form.
  const bare = await createIn(ctx, CTW, 'window bare', { linked_services: undefined });
  if (bare.key) {
    const none = await linkedKpis(ctx, bare.key);
    ctx.expect.equal(
      'OPS-CTW-LINKED-KPIS',
      'linked_kpis of a window created without linked_services: success, entries and count',
      { success: ok(none), entries: pairsOfRows(none), count: asDoc(none.json).count },
      { success: true, entries: [], count: 0 },
      none,
    );
  }
  const zero = await linkedKpis(ctx, window, { limit: 0 });
  const got = pairsOfRows(zero);
  ctx.expect.that(
    'OPS-LIMITS-LINKED-KPIS-ZERO',
    'linked_kpis with limit=0',
    ok(zero) && sameSet(got, all),
    { expected: `a success with all of ${show(all)}`, actual: `${zero.status} with ${show(got)}` },
    zero,
  );
}

/** What associate answers as linked on a window created with nothing linked is what linked_kpis lists afterwards. */
async function associatedThenListed(ctx: OpsContext): Promise<void> {
  // Every requirement is judged by now: a service that cannot be made here (Unmet) leaves nothing more untested.
  const s3 = await serviceWithKpis(ctx, 'ctw three', 1);
  const empty = await createIn(ctx, CTW, 'window empty', { linked_services: [] });
  if (!empty.key) return;
  const { ex: joined } = await associate(ctx, empty.key, [{ _key: s3.key, kpi_ids: [s3.kpis[0].key] }]);
  const said = [...new Set(answeredPairs(joined))];
  if (!ok(joined) || !said.length) return;
  const listed = await linkedKpis(ctx, empty.key);
  ctx.expect.that(
    'OPS-CTW-ASSOCIATE',
    `linked_kpis of ${empty.key}, created with nothing linked, after associate_service_kpi answered ${show(said)} as linked`,
    ok(listed) && sameSet(pairsOfRows(listed), said),
    { expected: `a success with ${show(said)}`, actual: `${listed.status} with ${show(pairsOfRows(listed))}` },
    listed,
  );
}

const associateAndLinkedKpis: OpsCheck = {
  id: 'ops.ctw.associate-linked-kpis',
  title:
    "associate_service_kpi (payload: the window key, or the KPIs) MUST link the window to its KPIs and answer those linked; linked_kpis MUST list exactly that window's KPIs, at most `limit` of them and all of them for limit=0",
  requirements: ['OPS-CTW-ASSOCIATE', 'OPS-CTW-LINKED-KPIS', 'OPS-CTW-LINKED-KPIS-PARAM', 'OPS-LIMITS-LINKED-KPIS-ZERO', 'OPS-CTW-FIELDS'],
  shares: ['threshold-windows'],
  async run(ctx) {
    const s1 = await serviceWithKpis(ctx, 'ctw one', 3);
    const s2 = await serviceWithKpis(ctx, 'ctw two', 1);
    const linksA: Links = [
      { _key: s1.key, kpi_ids: [s1.kpis[0].key, s1.kpis[1].key] },
      { _key: s2.key, kpi_ids: [s2.kpis[0].key] },
    ];
    const linksB: Links = [{ _key: s1.key, kpi_ids: [s1.kpis[2].key] }];
    const a = await windowFor(ctx, 'window a', linksA);
    const b = await windowFor(ctx, 'window b', linksB);
    const wanted: [string, Links][] = [
      [a.key, linksA],
      [b.key, linksB],
    ];
    for (const [window, links] of wanted) await judgeAssociate(ctx, window, links);
    const services = new Map([s1, s2].map((s) => [s.key, s]));
    let linkedKpisHold = true;

    await judgeParamNames(ctx, a.key, wanted[0][1]);

    for (const [window, links] of wanted) if (!(await judgeLinkedKpis(ctx, window, links, services))) linkedKpisHold = false;

    await judgeLimits(ctx, a.key, pairsOfLinks(wanted[0][1]));

    // A window created with nothing linked: what associate answers as linked is what linked_kpis lists afterwards
    // (judged where linked_kpis was seen to list a window's own KPIs, so that its faults stay its own).
    if (!linkedKpisHold) return;
    await associatedThenListed(ctx);
  },
};

const disconnectUnlinks: OpsCheck = {
  id: 'ops.ctw.disconnect',
  title: 'disconnect_kpis MUST unlink every KPI of that window, and only of that window',
  requirements: ['OPS-CTW-DISCONNECT'],
  shares: ['threshold-windows'],
  async run(ctx) {
    const s = await serviceWithKpis(ctx, 'ctw disconnect', 3);
    const linkA: Links = [{ _key: s.key, kpi_ids: [s.kpis[0].key, s.kpis[1].key] }];
    const linkB: Links = [{ _key: s.key, kpi_ids: [s.kpis[2].key] }];
    const a = await windowFor(ctx, 'disconnect a', linkA);
    const b = await windowFor(ctx, 'disconnect b', linkB);
    const assoc = [(await associate(ctx, a.key, linkA)).ex, (await associate(ctx, b.key, linkB)).ex];
    need(
      assoc.every(ok),
      `associate_service_kpi answered ${assoc.map((e) => e.status).join(', ')}`,
      assoc.find((e) => !ok(e)),
    );
    // Judged only where linked_kpis shows each window's links before the disconnect.
    const before = [await linkedKpis(ctx, a.key), await linkedKpis(ctx, b.key)];
    if (!sameSet(pairsOfRows(before[0]), pairsOfLinks(linkA)) || !sameSet(pairsOfRows(before[1]), pairsOfLinks(linkB))) {
      return ctx.untested(
        'OPS-CTW-DISCONNECT',
        `before disconnecting, linked_kpis does not show the windows' links (${show(pairsOfRows(before[0]))} and ${show(pairsOfRows(before[1]))})`,
        before[0],
      );
    }
    const ex = await disconnect(ctx, a.key);
    const dict = asDoc(ex.json).service_kpis_dict;
    ctx.expect.that(
      'OPS-CTW-DISCONNECT',
      'disconnect_kpis',
      ok(ex) && Array.isArray(dict),
      {
        expected: 'a success with a service_kpis_dict array',
        actual: `${ex.status} with ${Array.isArray(dict) ? `service_kpis_dict of ${dict.length} entries` : 'no service_kpis_dict array'}`,
      },
      ex,
    );
    ctx.observe(
      'OPS-CTW-DISCONNECT',
      `service_kpis_dict after disconnecting ${pairsOfLinks(linkA).join(', ')}: ${JSON.stringify(dict)?.slice(0, 300)}`,
    );
    ctx.expect.equal(
      'OPS-CTW-DISCONNECT',
      'service_kpis_dict entries not of the form {service_id, linked_kpi_ids: [string]}',
      unshapedEntries(dict),
      [],
      ex,
    );
    // A window with nothing linked may or may not be disconnected; an answer of success keeps the documented form.
    const bare = await createIn(ctx, CTW, 'disconnect bare', { linked_services: undefined });
    const none = bare.key ? await disconnect(ctx, bare.key) : undefined;
    if (none && ok(none)) {
      const bareDict = asDoc(none.json).service_kpis_dict;
      ctx.expect.that(
        'OPS-CTW-DISCONNECT',
        'disconnect_kpis of a window with nothing linked, answered with success',
        Array.isArray(bareDict) && unshapedEntries(bareDict).length === 0,
        { expected: 'service_kpis_dict, an array of {service_id, linked_kpi_ids} entries', actual: compact(none.json) },
        none,
      );
    }
    const left = await linkedKpis(ctx, a.key);
    ctx.expect.equal(
      'OPS-CTW-DISCONNECT',
      "the window's linked_kpis after disconnect_kpis: success and KPIs",
      { success: ok(left), kpis: pairsOfRows(left) },
      { success: true, kpis: [] },
      left,
    );
    // Whether the window's own linked_services is emptied too is not shown: recorded only.
    const stored = rowsOf((await getIn(ctx, CTW, a.key)).json, 'linked_services').flatMap((l) =>
      Array.isArray(l.linked_kpi_ids) ? l.linked_kpi_ids : [],
    );
    ctx.observe('OPS-CTW-DISCONNECT', `after disconnect_kpis the window's linked_services names ${stored.length} KPIs`);
    const other = await linkedKpis(ctx, b.key);
    ctx.expect.that(
      'OPS-CTW-DISCONNECT',
      "another window's linked_kpis after the disconnect",
      ok(other) && sameSet(pairsOfRows(other), pairsOfLinks(linkB)),
      { expected: `a success with ${show(pairsOfLinks(linkB))}`, actual: `${other.status} with ${show(pairsOfRows(other))}` },
      other,
    );
  },
};

/** The fields of a `{service_id, linked_kpi_ids}` entry, which the schemas type but leave optional. */
const LINK_FIELDS = ['service_id', 'linked_kpi_ids'];

/**
 * Entries of a `service_kpis_dict` (or of a window's `linked_services`, the same form) not of the form
 * `{service_id, linked_kpi_ids: [string]}`: those the DisconnectResult schema refuses, and those without one of the two.
 */
const unshapedEntries = (dict: unknown): unknown[] =>
  Array.isArray(dict)
    ? dict.filter(
        (e) =>
          !isDoc(e) ||
          lackingFields(e, LINK_FIELDS).length > 0 ||
          schemaFindings('DisconnectResult', { service_kpis_dict: [e] }).length > 0,
      )
    : [];

const stopMovesToStopped: OpsCheck = {
  id: 'ops.ctw.stop',
  title:
    'POST <id>/stop on an active window MUST answer the window with status stopped and last_stopped_time set, store that, and leave other windows active; status MUST be lower-case in responses',
  requirements: ['OPS-CTW-STOP', 'OPS-CTW-STATUS-LOWERCASE', 'OPS-CTW-OBJECT-TYPE', 'OPS-CTW-OTHER-STATES', 'OPS-CTW-FIELDS'],
  shares: ['threshold-windows'],
  async run(ctx) {
    const a = await createNeeded(ctx, CTW, 'stop a');
    const b = await createNeeded(ctx, CTW, 'stop b');
    const before = await getIn(ctx, CTW, a.key);
    const first = before.json;
    ctx.expect.that(
      'OPS-CTW-STATUS-LOWERCASE',
      'status of a new window',
      ok(before) && isLower(first?.status),
      { expected: 'a success with a lower-case string', actual: `${before.status} ${compact(first?.status)}` },
      before,
    );
    ctx.expect.equal('OPS-CTW-OBJECT-TYPE', 'object_type of the window', first?.object_type, 'custom_threshold_windows', before);
    if (String(first?.status).toLowerCase() !== 'active') {
      ctx.observe('OPS-CTW-OTHER-STATES', `a window created with status "active" reads ${JSON.stringify(first?.status)}`);
      return ctx.untested('OPS-CTW-STOP', `the window is not active after create (status ${JSON.stringify(first?.status)})`, before);
    }
    const stop = await ctx.http.send('ctwStop', { params: { object_id: a.key } });
    const w = stop.json;
    const stopped = ok(stop) && w?._key === a.key && String(w?.status).toLowerCase() === 'stopped';
    ctx.expect.that(
      'OPS-CTW-STOP',
      'stop of an active window',
      stopped,
      {
        expected: `a success with _key ${a.key} and status stopped`,
        actual: `${stop.status} with _key ${compact(w?._key)} and status ${compact(w?.status)}`,
      },
      stop,
    );
    const stamp: unknown = w?.last_stopped_time;
    ctx.expect.that(
      'OPS-CTW-STOP',
      'last_stopped_time of the stopped window',
      stamp !== undefined && stamp !== null && stamp !== '' && stamp !== 0,
      { expected: 'set', actual: compact(stamp) },
      stop,
    );
    if (stamp !== undefined)
      ctx.expect.that(
        'OPS-CTW-FIELDS',
        'last_stopped_time, listed as epoch seconds',
        typeof stamp === 'number',
        { expected: 'a number', actual: compact(stamp) },
        stop,
      );
    ctx.expect.that(
      'OPS-CTW-STATUS-LOWERCASE',
      'status the stop answered',
      isLower(w?.status),
      { expected: 'a lower-case string', actual: compact(w?.status) },
      stop,
    );
    const after = await getIn(ctx, CTW, a.key);
    const read = after.json;
    ctx.expect.that(
      'OPS-CTW-STOP',
      'the window read after stop',
      String(read?.status).toLowerCase() === 'stopped' && sameStamp(read?.last_stopped_time, w?.last_stopped_time),
      {
        expected: `status stopped, last_stopped_time ${compact(w?.last_stopped_time)}`,
        actual: `status ${compact(read?.status)}, last_stopped_time ${compact(read?.last_stopped_time)}`,
      },
      after,
    );
    ctx.expect.that(
      'OPS-CTW-STATUS-LOWERCASE',
      'status of the stopped window, read',
      isLower(read?.status),
      { expected: 'a lower-case string', actual: compact(read?.status) },
      after,
    );
    const other = (await getIn(ctx, CTW, b.key)).json;
    ctx.expect.that(
      'OPS-CTW-STOP',
      'status of another window after the first was stopped',
      String(other?.status).toLowerCase() === 'active',
      { expected: 'active', actual: compact(other?.status) },
    );

    // Stopping a stopped window is not shown: any answer is accepted and recorded.
    const again = await ctx.http.send('ctwStop', { params: { object_id: a.key } });
    const w2 = again.json;
    ctx.observe(
      'OPS-CTW-OTHER-STATES',
      `stopping a stopped window answered ${again.status}${ok(again) ? ` with status ${JSON.stringify(w2?.status)}, last_stopped_time ${w2?.last_stopped_time === w?.last_stopped_time ? 'unchanged' : `now ${JSON.stringify(w2?.last_stopped_time)}`}` : ''}`,
    );
  },
};

/**
 * Where a window departs from the types the document lists: the CustomThresholdWindow schema's findings, less those of
 * object_type and of the case of a status (OPS-CTW-OBJECT-TYPE and OPS-CTW-STATUS-LOWERCASE judge them), and the
 * linked_services entries without service_id or linked_kpi_ids, which the schema types but leaves optional.
 */
function windowTypeProblems(w: Doc): string[] {
  const findings = schemaFindings('CustomThresholdWindow', w).filter(
    (f) => f.at !== '/object_type' && !(f.at === '/status' && typeof w.status === 'string'),
  );
  const links = Array.isArray(w.linked_services) ? w.linked_services : [];
  return [
    ...findings.map((f) => f.message),
    ...links.flatMap((l, i) => absentFields(l, LINK_FIELDS, `/linked_services/${i}`).map((f) => `${f} is absent`)),
  ];
}

const windowFields: OpsCheck = {
  id: 'ops.ctw.fields',
  title:
    'Every custom threshold window read MUST carry object_type custom_threshold_windows and a lower-case status; its fields SHOULD have the listed types',
  requirements: ['OPS-CTW-FIELDS', 'OPS-CTW-OBJECT-TYPE', 'OPS-CTW-STATUS-LOWERCASE', 'OPS-CTW-OTHER-STATES'],
  shares: ['threshold-windows'],
  async run(ctx) {
    // One window of the run's own, so the list is never empty. None is written with another spelling of a status
    // (the state table's "Active"): a server may store a client's status as sent, which no clause rules out.
    await createIn(ctx, CTW, 'fields');
    const ex = await listIn(ctx, CTW);
    const windows = rows(ex);
    need(ok(ex) && windows.length, `the window list answered ${ex.status} with ${windows.length} windows`, ex);
    const badType = windows.filter((w) => w.object_type !== 'custom_threshold_windows');
    ctx.expect.equal(
      'OPS-CTW-OBJECT-TYPE',
      `windows with an object_type other than custom_threshold_windows (of ${windows.length})`,
      badType.map((w) => ({ _key: w._key, object_type: w.object_type })),
      [],
      ex,
    );
    const statuses = [...new Set(windows.map((w) => w.status))];
    ctx.expect.equal(
      'OPS-CTW-STATUS-LOWERCASE',
      'window statuses that are not lower-case strings',
      statuses.filter((s) => !isLower(s)),
      [],
      ex,
    );
    const other = statuses.filter((s) => !['active', 'stopped'].includes(String(s).toLowerCase()));
    if (other.length) ctx.observe('OPS-CTW-OTHER-STATES', `windows also have status ${other.join(', ')}`);
    const wrong = windows.flatMap((w) => windowTypeProblems(w).map((p) => `${String(w._key)} ${p}`));
    ctx.expect.equal('OPS-CTW-FIELDS', `fields of ${windows.length} windows of another type than listed`, wrong, [], ex);
  },
};

export const thresholdWindowsChecks: OpsCheck[] = [associateAndLinkedKpis, disconnectUnlinks, stopMovesToStopped, windowFields];
