import fc from 'fast-check';
import { inSomeOrder } from '../collation';
import { checkProperty, Violation } from '../../core/property';
import { compact } from '../../core/expect';
import { asDoc, isDoc } from '../../core/json';
import { need, Unmet } from '../../core/precondition';
import type { Exchange } from '../../core/types';
import { keys, lackingFields, ok, rows, tagged, type Doc, type OpsCheck, type OpsContext } from '../support';

/** The object types the document names as seen on this interface. */
const SEEN_TYPES = ['correlation_search', 'notable_event_group'] as const;
const COMMENT = 'notable_event_comment';
const FLAGS = ['is_group_compatible', 'execute_once_per_group', 'execute_in_sync', 'is_bulk_compatible'];
const ENTRY_FIELDS = ['label', 'type', 'action_name', ...FLAGS];
const NAMED_ACTIONS = [
  'email',
  'script',
  'ops_event_action_link_ticket',
  'ops_event_action_link_url',
  'ops_event_action_send_to_orchestrator',
  'ops_sample_event_action_ping',
];
const CONFIG_FIELDS = [
  'ttl',
  'filename',
  'track_alert',
  'maxresults',
  'description',
  'label',
  'maxtime',
  'disabled',
  'hostname',
  'icon_path',
  'command',
  'eai:userName',
  'eai:appName',
  'eai:acl',
];

export const emList = (ctx: OpsContext, type: string, query: Record<string, string | number> = {}) =>
  ctx.http.send('emList', { params: { object_type: type }, query });

/** Base path of the interface, for the methods the spec does not list as operations. */
export const emPath = (ctx: OpsContext, rest: string) => {
  const d = ctx.target.pathDefaults ?? {};
  return `/servicesNS/${encodeURIComponent(d.user ?? 'nobody')}/${encodeURIComponent(d.app ?? 'SA-ITOA')}/event_management_interface/${rest}`;
};

const isScalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);
const isIntegerLike = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^-?\d+$/.test(v.trim()));

const listSeenTypes: OpsCheck = {
  id: 'ops.events.list',
  title:
    'GET event_management_interface/<object_type> MUST answer an array of objects for correlation_search and notable_event_group, each with _key and object_type',
  requirements: ['OPS-EM-LIST', 'OPS-EM-FIELDS-NOT-SHOWN', 'OPS-COMMON-KEY-OBJECT-TYPE'],
  // Content-pack installs add correlation searches and aggregation policies: the lists must hold still meanwhile.
  uses: ['content-packs'],
  async run(ctx) {
    for (const type of SEEN_TYPES) {
      const ex = await emList(ctx, type);
      const list: unknown[] | undefined = Array.isArray(ex.json) ? ex.json : undefined;
      const objects = list?.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r));
      ctx.expect.that(
        'OPS-EM-LIST',
        `the ${type} list`,
        ok(ex) && !!list && !!objects,
        {
          expected: 'a success with an array of objects',
          actual: `${ex.status} with ${list ? `${list.length} entries${objects ? '' : ', not all of them objects'}` : 'no array'}`,
        },
        ex,
      );
      const found = rows(ex);
      // Every object has a _key and an object_type; which object_type an event-management row names is not shown (a
      // real episode state reads notable_event_state).
      const off = found.filter((r) => typeof r._key !== 'string' || typeof r.object_type !== 'string');
      ctx.expect.equal(
        'OPS-COMMON-KEY-OBJECT-TYPE',
        `${type} rows without a string _key or a string object_type (of ${found.length})`,
        off.map((r) => ({ _key: r._key, object_type: r.object_type })),
        [],
        ex,
      );
      const fields = [...new Set(found.flatMap((r) => Object.keys(r)))].sort();
      ctx.observe('OPS-EM-FIELDS-NOT-SHOWN', `${type} rows carry ${fields.slice(0, 40).join(', ') || '(no rows)'}`);
      const partial = await emList(ctx, type, { is_partial_data: 1 });
      ctx.observe(
        'OPS-EM-LIST',
        `${type} with is_partial_data=1 answered ${partial.status} with ${rows(partial).length} rows (${found.length} without it)`,
      );
    }
  },
};

/**
 * A field name that means the same to every server: a name with a dot (real correlation searches hold keys such as
 * `action.email.to`) is a path into nested objects to a server that reads names as paths, and the document does not
 * say which reading sort_key, fields and filter_data take.
 */
const plainName = (f: string) => !f.includes('.') && !f.startsWith('$');

/** Fields every row holds with one scalar type: what sorting and filtering can be judged on. */
function uniformFields(all: Doc[]): { field: string; unique: boolean }[] {
  const names = [...new Set(all.flatMap((r) => Object.keys(r)))].filter(plainName);
  return names
    .filter((f) => all.every((r) => isScalar(r[f]) && typeof r[f] === typeof all[0][f]))
    .map((f) => ({ field: f, unique: new Set(all.map((r) => r[f])).size === all.length }));
}

/** Live episodes change under a run: a case that fails is tried once more before it counts. */
async function twice(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    if (!(e instanceof Violation)) throw e;
    await body();
  }
}

/**
 * Fields whose value differs between two reads of the same row: a server may keep its own bookkeeping (an etag, a
 * revision, a read time) that changes on every read, and a live store changes rows under the run. No comparison
 * is made on them: the parameters' clauses are about order, paging, projection and selection, not about stability.
 */
async function volatileFields(ctx: OpsContext, type: string, all: Doc[]): Promise<Set<string>> {
  const again = new Map(rows(await emList(ctx, type)).map((r) => [String(r._key), r]));
  const changed = new Set<string>();
  for (const r of all) {
    const other = again.get(String(r._key));
    if (!other) continue;
    for (const f of new Set([...Object.keys(r), ...Object.keys(other)]))
      if (JSON.stringify(r[f]) !== JSON.stringify(other[f])) changed.add(f);
  }
  return changed;
}

/** One case of the list-parameter property: a sort, a page of it, a projection and a filter on one row's value. */
interface ListCase {
  sortKey: string;
  dir: 0 | 1;
  skip: number;
  limit: number;
  asked: string[];
  filterField: string;
  filterRow: number;
  ne: boolean;
}

/** sort_key/sort_dir order the rows, and skip/limit page through that order; returns the sorted read. */
async function judgeSortAndPage(ctx: OpsContext, type: string, c: ListCase): Promise<Exchange> {
  const sortDir = c.dir === 1 ? 1 : -1;
  const sorted = await emList(ctx, type, { sort_key: c.sortKey, sort_dir: c.dir });
  const values = rows(sorted).map((r) => r[c.sortKey]);
  if (!ok(sorted) || !inSomeOrder(values, sortDir))
    throw new Violation(
      `${type} with sort_key=${c.sortKey}&sort_dir=${c.dir} answered ${sorted.status}, values in the order ${JSON.stringify(values.slice(0, 10))}`,
      'OPS-EM-LIST-PARAMS',
      sorted,
      {
        expected: `a success in ${sortDir === 1 ? 'ascending' : 'descending'} order of ${c.sortKey}`,
        actual: `${sorted.status} ${compact(values.slice(0, 10))}`,
      },
    );
  const order = keys(rows(sorted));
  const page = await emList(ctx, type, { sort_key: c.sortKey, sort_dir: c.dir, skip: c.skip, limit: c.limit });
  const got = keys(rows(page));
  const want = order.slice(c.skip, c.skip + c.limit);
  if (!ok(page) || JSON.stringify(got) !== JSON.stringify(want)) {
    const what =
      got.length > c.limit
        ? `more than limit=${c.limit} rows`
        : `rows ${got.join(',') || '(none)'} instead of ${want.join(',') || '(none)'}`;
    throw new Violation(
      `${type} with skip=${c.skip}&limit=${c.limit} sorted by ${c.sortKey}/${c.dir} answered ${page.status}: ${what}`,
      'OPS-EM-LIST-PARAMS',
      page,
    );
  }
  return sorted;
}

/** `fields` restricts each row to the fields asked (and the server's own, `always`), with their values unchanged. */
async function judgeProjection(
  ctx: OpsContext,
  type: string,
  c: ListCase,
  sorted: Exchange,
  fixed: { always: Set<string>; volatile: Set<string> },
): Promise<void> {
  const { always, volatile } = fixed;
  const asked = [...c.asked, '_key'];
  // Projected rows are compared with the rows of the sorted read just before, not the snapshot: a live store moves on.
  const byKey = new Map(rows(sorted).map((r) => [String(r._key), r]));
  const projected = await emList(ctx, type, { fields: asked.join(',') });
  for (const r of rows(projected)) {
    const extra = Object.keys(r).filter((k) => !asked.includes(k) && k !== 'object_type' && !always.has(k));
    const full = byKey.get(String(r._key));
    const changed = full
      ? asked.filter((f) => !volatile.has(f) && full[f] !== undefined && JSON.stringify(r[f]) !== JSON.stringify(full[f]))
      : [];
    if (extra.length || changed.length)
      throw new Violation(
        `${type} with fields=${asked.join(',')}: row ${String(r._key)} ${extra.length ? `also carries ${extra.slice(0, 5).join(', ')}` : `differs in ${changed.join(', ')}`}`,
        'OPS-EM-LIST-PARAMS',
        projected,
      );
  }
  // `fields` restricts the fields, not the rows: every row of the sorted read just before is still listed.
  const lost = [...byKey.keys()].filter((k) => !keys(rows(projected)).includes(k));
  if (!ok(projected) || lost.length > 0)
    throw new Violation(
      `${type} with fields=${asked.join(',')} answered ${projected.status} without ${lost.length} of the rows listed just before`,
      'OPS-EM-LIST-PARAMS',
      projected,
      {
        expected: `a success listing the ${byKey.size} rows of the list read just before`,
        actual: `${projected.status}, ${lost.length} of them missing (${lost.slice(0, 3).join(', ')})`,
      },
    );
}

/** filter_data on one row's value (or its $ne) lists the matching rows and only them. */
async function judgeFilter(ctx: OpsContext, type: string, c: ListCase, sorted: Exchange, all: Doc[]): Promise<void> {
  const value = all[c.filterRow][c.filterField];
  const matches = (r: Doc) => (c.ne ? r[c.filterField] !== value : r[c.filterField] === value);
  const filter = JSON.stringify({ [c.filterField]: c.ne ? { $ne: value } : value });
  const filtered = await emList(ctx, type, { filter_data: filter });
  const wrong = rows(filtered).filter((r) => !matches(r));
  // Matching rows are taken from the sorted read of this case; one gone from a live store since is not missing.
  const after = new Set(keys(rows(await emList(ctx, type))));
  const missing = keys(rows(sorted).filter(matches))
    .filter((k) => after.has(k))
    .filter((k) => !keys(rows(filtered)).includes(k));
  if (!ok(filtered) || wrong.length || missing.length)
    throw new Violation(
      `${type} with filter_data=${filter} answered ${filtered.status}: ${wrong.length} rows that do not match, ${missing.length} matching rows left out`,
      'OPS-EM-LIST-PARAMS',
      filtered,
    );
}

/** The cases every run tries first, where a list has two rows or more. */
function firstRowCases(all: Doc[], sortable: string[], projectable: string[], filterable: string[]): [ListCase][] {
  // One row at a time from the start and from the second row: a limit that is ignored shows on any list of two rows.
  // Sorted by a field the unsorted list is not already in ascending order of: a list that ignores sort_key fails.
  const unlike =
    sortable.find(
      (f) =>
        !inSomeOrder(
          all.map((r) => r[f]),
          1,
        ),
    ) ?? sortable[0];
  const first = (skip: number): ListCase => ({
    sortKey: unlike,
    dir: 1 as const,
    skip,
    limit: 1,
    asked: projectable.slice(0, 1),
    filterField: filterable[0],
    filterRow: 0,
    ne: false,
  });
  return all.length > 1 ? [[first(0)], [first(1)]] : [];
}

async function listParamsProperty(ctx: OpsContext, type: string, all: Doc[]) {
  const volatile = await volatileFields(ctx, type, all);
  if (volatile.size)
    ctx.observe(
      'OPS-EM-LIST-PARAMS',
      `${type}: fields that changed between two reads, left out of every comparison: ${[...volatile].slice(0, 8).join(', ')}`,
    );
  const fields = uniformFields(all).filter((f) => !volatile.has(f.field));
  const sortable = fields.filter((f) => f.unique).map((f) => f.field);
  const filterable = fields.map((f) => f.field);
  const projectable = [...new Set(all.flatMap((r) => Object.keys(r)))].filter((f) => f !== '_key' && f !== 'object_type' && plainName(f));
  if (!sortable.length)
    return ctx.untested('OPS-EM-LIST-PARAMS', `${type}: no field has distinct scalar values in every row, so no order can be judged`);
  const n = all.length;
  // Fields a server returns with every projection are its own (bookkeeping it adds); the others must follow `fields`.
  const minimal = await emList(ctx, type, { fields: '_key' });
  const always = new Set(rows(minimal).flatMap((r) => Object.keys(r)));
  const dropped = projectable.filter((f) => !always.has(f));
  if (
    !ctx.expect.that(
      'OPS-EM-LIST-PARAMS',
      `the ${type} list with fields=_key`,
      ok(minimal) && (projectable.length === 0 || dropped.length > 0),
      {
        expected: `a success whose rows drop some of ${projectable.slice(0, 8).join(', ')}`,
        actual: `${minimal.status} with rows carrying ${[...always].slice(0, 8).join(', ')}`,
      },
      minimal,
    )
  )
    return;
  const arb = fc.record({
    sortKey: fc.constantFrom(...sortable),
    dir: fc.constantFrom(0, 1),
    skip: fc.nat({ max: n }),
    limit: fc.integer({ min: 1, max: n + 1 }),
    asked: projectable.length ? fc.subarray(projectable, { minLength: 1, maxLength: 3 }) : fc.constant<string[]>([]),
    filterField: fc.constantFrom(...filterable),
    filterRow: fc.nat({ max: n - 1 }),
    ne: fc.boolean(),
  });
  const property = fc.asyncProperty(arb, (c: ListCase) =>
    twice(async () => {
      const sorted = await judgeSortAndPage(ctx, type, c);
      await judgeProjection(ctx, type, c, sorted, { always, volatile });
      await judgeFilter(ctx, type, c, sorted, all);
    }),
  );
  // A large live store makes every case expensive: fewer cases there.
  const runs = n > 500 ? Math.min(3, ctx.options.runs) : Math.ceil(ctx.options.runs / 2);
  const examples = firstRowCases(all, sortable, projectable, filterable);
  await checkProperty(ctx, 'OPS-EM-LIST-PARAMS', `${type} list parameters`, property, { runs, concurrent: true, examples });
}

const listParameters: OpsCheck = {
  id: 'ops.events.list-params',
  title:
    'On event-management lists, sort_key/sort_dir MUST order the rows, skip and limit MUST page through that order, fields MUST restrict the fields and filter_data MUST select the matching rows',
  requirements: ['OPS-EM-LIST-PARAMS'],
  // Content-pack installs add correlation searches and aggregation policies: the lists must hold still meanwhile.
  uses: ['content-packs'],
  async run(ctx) {
    for (const type of SEEN_TYPES) {
      const whole = await emList(ctx, type);
      const all = rows(whole).filter((r) => typeof r._key === 'string');
      if (!ok(whole) || all.length === 0) {
        ctx.untested('OPS-EM-LIST-PARAMS', `${type}: the list answered ${whole.status} with no rows to sort, page or filter`, whole);
        continue;
      }
      await listParamsProperty(ctx, type, all);
    }
  },
};

const episodeActions: OpsCheck = {
  id: 'ops.events.actions',
  title:
    'notable_event_actions MUST list the episode actions with integer flags and type external_ticket or empty; every listed action_name MUST answer its configuration',
  requirements: [
    'OPS-EM-ACTIONS-LIST',
    'OPS-EM-ACTION-ENTRY',
    'OPS-EM-ACTION-VALUES',
    'OPS-EM-ACTION-TYPE',
    'OPS-EM-ACTION-NAMES',
    'OPS-EM-ACTION-NAME-SOURCE',
    'OPS-EM-ACTION-GET',
    'OPS-EM-ACTION-CONFIG',
  ],
  async run(ctx) {
    const ex = await ctx.http.send('emActionList');
    const list = rows(ex);
    if (
      !ctx.expect.that(
        'OPS-EM-ACTIONS-LIST',
        'the action list',
        ok(ex) && Array.isArray(ex.json),
        {
          expected: 'a success with an array',
          actual: `${ex.status} with ${Array.isArray(ex.json) ? `${list.length} actions` : 'no array'}`,
        },
        ex,
      )
    )
      return;
    if (!list.length) {
      ctx.expect.equal('OPS-EM-ACTION-NAMES', 'actions the document names that the listing lacks', NAMED_ACTIONS, [], ex);
      for (const r of [
        'OPS-EM-ACTION-ENTRY',
        'OPS-EM-ACTION-VALUES',
        'OPS-EM-ACTION-TYPE',
        'OPS-EM-ACTION-NAME-SOURCE',
        'OPS-EM-ACTION-GET',
        'OPS-EM-ACTION-CONFIG',
      ] as const)
        ctx.untested(r, 'the action list is empty', ex);
      return;
    }
    const incomplete = list.filter(
      (a) => ENTRY_FIELDS.some((f) => a[f] === undefined) || typeof a.label !== 'string' || typeof a.action_name !== 'string',
    );
    ctx.expect.equal(
      'OPS-EM-ACTION-ENTRY',
      `entries lacking one of ${ENTRY_FIELDS.join(', ')} or a string label and action_name (of ${list.length})`,
      incomplete,
      [],
      ex,
    );
    const badFlags = list.flatMap((a) =>
      FLAGS.filter((f) => a[f] !== undefined && !isIntegerLike(a[f])).map((f) => `${String(a.action_name)}.${f}=${JSON.stringify(a[f])}`),
    );
    ctx.expect.equal('OPS-EM-ACTION-VALUES', 'flags that are neither integers nor integer-like strings', badFlags, [], ex);
    // An entry without type is an ENTRY matter (SHOULD); the rule is on the values given.
    const types = [...new Set(list.filter((a) => a.type !== undefined).map((a) => a.type))];
    ctx.expect.equal(
      'OPS-EM-ACTION-TYPE',
      "action types other than '' and external_ticket",
      types.filter((t) => !(t === '' || t === 'external_ticket')),
      [],
      ex,
    );
    const names = list.map((a) => a.action_name).filter((n): n is string => typeof n === 'string');
    ctx.expect.equal(
      'OPS-EM-ACTION-NAMES',
      'actions the document names that the listing lacks',
      NAMED_ACTIONS.filter((n) => !names.includes(n)),
      [],
      ex,
    );

    const lacking: string[] = [];
    for (const entry of list.slice(0, 40)) {
      const name = entry.action_name;
      if (typeof name !== 'string') continue;
      const got = await ctx.http.send('emActionGet', { params: { action_name: name } });
      const config = got.json;
      const isObject = ok(got) && !!config && typeof config === 'object' && !Array.isArray(config);
      ctx.expect.status('OPS-EM-ACTION-NAME-SOURCE', `GET notable_event_actions/${name}`, got, '2xx');
      if (!ok(got)) continue;
      ctx.expect.that(
        'OPS-EM-ACTION-GET',
        `the configuration of ${name}`,
        isObject,
        { expected: 'an object', actual: compact(config) },
        got,
      );
      if (isObject && typeof config.label === 'string' && typeof entry.label === 'string')
        ctx.expect.equal('OPS-EM-ACTION-GET', `label of the configuration of ${name}, against the list's`, config.label, entry.label, got);
      const missing = isObject ? lackingFields(config, CONFIG_FIELDS) : CONFIG_FIELDS;
      if (missing.length) lacking.push(`${name}: ${missing.join(', ')}`);
    }
    ctx.expect.equal('OPS-EM-ACTION-CONFIG', 'configurations without a documented setting', lacking, []);
  },
};

const executeAction: OpsCheck = {
  id: 'ops.events.action-execute',
  title: 'POST notable_event_actions/<action_name> with {params, ids} MUST run the action and answer [{action_name, ids, sid}]',
  requirements: ['OPS-EM-ACTION-EXECUTE'],
  // Runs an action on a real episode.
  destructive: true,
  shares: ['episode-actions'],
  async run(ctx) {
    const actions = rows(await ctx.http.send('emActionList'));
    need(
      actions.some((a) => a.action_name === 'ops_sample_event_action_ping'),
      'the action list has no ops_sample_event_action_ping, the one action safe to run',
    );
    const episodes = await emList(ctx, 'notable_event_group', { limit: 1 });
    const episode = rows(episodes)[0]?._key;
    if (typeof episode !== 'string') throw new Unmet('there is no episode to run the action on', episodes);
    const ex = await ctx.http.send('emActionExecute', {
      params: { action_name: 'ops_sample_event_action_ping' },
      body: { params: { host: 'localhost' }, ids: [episode] },
    });
    const results = rows(ex);
    const mine = results.find((r) => r.action_name === 'ops_sample_event_action_ping');
    const good =
      ok(ex) && !!mine && Array.isArray(mine.ids) && mine.ids.includes(episode) && typeof mine.sid === 'string' && mine.sid !== '';
    ctx.expect.that(
      'OPS-EM-ACTION-EXECUTE',
      `running ops_sample_event_action_ping on ${episode}`,
      good,
      { expected: `a success with [{action_name, ids including ${episode}, sid}]`, actual: `${ex.status} ${ex.text.slice(0, 200)}` },
      ex,
    );
  },
};

/** A comment's key: older releases answer {_key}, newer ones the record with comment_id. */
const commentKey = (ex: Exchange): string | undefined => {
  const d = asDoc(ex.json);
  const k = d._key ?? d.comment_id;
  return typeof k === 'string' && k !== '' ? k : undefined;
};

const commentsAppendOnly: OpsCheck = {
  id: 'ops.events.comments-append-only',
  title:
    'Episode comments MUST be append-only: once added, a comment MUST stay as created whatever update or delete is sent (any answer to those is accepted)',
  requirements: ['OPS-EM-COMMENTS-APPEND-ONLY', 'OPS-EM-OTHER-METHODS'],
  async run(ctx) {
    // An episode id of the run's own: the comment never lands on a real episode. A server that takes comments only
    // on episodes it holds gets one on the first episode it lists, where destructive checks are allowed (a comment
    // is there to stay).
    const text = tagged(ctx, 'append-only comment');
    const add = (event: string) => ctx.http.raw('POST', emPath(ctx, COMMENT), { body: { event_id: event, comment: text } });
    let episode = `${ctx.options.runTag}-comment-episode`;
    let made = await add(episode);
    const real =
      ok(made) || made.status >= 500 || !ctx.options.allowDestructive
        ? undefined
        : rows(await emList(ctx, 'notable_event_group', { limit: 1 }))[0]?._key;
    if (typeof real === 'string') {
      ctx.observe(
        'OPS-EM-OTHER-METHODS',
        `a comment on an episode id the server does not hold answered ${made.status}: the comment went to its episode ${real}`,
      );
      episode = real;
      made = await add(episode);
    }
    ctx.observe('OPS-EM-OTHER-METHODS', `POST ${COMMENT} answered ${made.status} ${made.text.slice(0, 120)}`);
    // How a comment is added is not shown: a server that takes it otherwise leaves the rule untested.
    need(ok(made), `adding a comment with POST ${COMMENT} {event_id, comment} answered ${made.status}`, made);
    const find = async () => {
      const ex = await emList(ctx, COMMENT, { filter_data: JSON.stringify({ event_id: episode }) });
      return { ex, own: rows(ex).filter((r) => r.event_id === episode) };
    };
    // The stored comment is found by its text: the answer's comment_id (newer releases) need not be its _key.
    const stored = (await find()).own.find((r) => r.comment === text)?._key;
    const key = typeof stored === 'string' ? stored : commentKey(made);
    if (typeof key !== 'string') throw new Unmet('the new comment could not be found by its key', made);
    const readOne = async () => {
      const ex = await ctx.http.raw('GET', emPath(ctx, `${COMMENT}/${encodeURIComponent(key)}`));
      return { ex, one: ok(ex) && isDoc(ex.json) ? ex.json : undefined };
    };
    // Where the comment was seen (its list, else a read by key) is where it is looked for afterwards.
    if (typeof stored !== 'string' && !(await readOne()).one)
      throw new Unmet(`the new comment is neither in the episode's comment list nor readable by the key ${key} the create answered`, made);
    ctx.ledger.add(`${COMMENT} ${key}`, async () => {
      const del = await ctx.http.raw('DELETE', emPath(ctx, `${COMMENT}/${encodeURIComponent(key)}`));
      if (!ok(del)) throw new Error(`episode comments are append-only: left on episode ${episode}`);
    });

    const changed = `${text} changed`;
    const attempts: [string, string, unknown, Record<string, number>?][] = [
      ['POST', `${COMMENT}/${encodeURIComponent(key)}`, { comment: changed }, { is_partial_data: 1 }],
      ['POST', `${COMMENT}/${encodeURIComponent(key)}`, { comment: changed, event_id: episode }, { is_partial_data: 0 }],
      ['PUT', `${COMMENT}/${encodeURIComponent(key)}`, { comment: changed, event_id: episode }],
      ['POST', `${COMMENT}/bulk_update`, [{ _key: key, comment: changed, event_id: episode }], { is_partial_data: 1 }],
      ['DELETE', `${COMMENT}/${encodeURIComponent(key)}`, undefined],
    ];
    // Judged by their effect: the answers themselves (status codes are not shown) are recorded.
    const answers: string[] = [];
    for (const [method, rest, body, query] of attempts) {
      const ex = await ctx.http.raw(method, emPath(ctx, rest), { body, query });
      answers.push(
        `${method} ${rest.replace(encodeURIComponent(key), '<key>')}${query ? `?is_partial_data=${query.is_partial_data}` : ''}: ${ex.status}`,
      );
    }
    ctx.observe('OPS-EM-OTHER-METHODS', `update and delete of a comment answered ${answers.join('; ')}`);
    const after =
      typeof stored === 'string' ? await find().then(({ ex, own }) => ({ ex, one: own.find((r) => r._key === key) })) : await readOne();
    ctx.expect.that(
      'OPS-EM-COMMENTS-APPEND-ONLY',
      `the comment ${key} after every update and delete (read from ${typeof stored === 'string' ? "the episode's comment list" : 'a read by key'})`,
      after.one?.comment === text,
      { expected: compact(text), actual: after.one ? compact(after.one.comment) : `gone (${after.ex.status})` },
      after.ex,
    );
  },
};

const otherEndpoints: OpsCheck = {
  id: 'ops.events.other-endpoints',
  title: 'An event-management object type the document does not name MAY be served or refused: any answer is accepted and recorded',
  requirements: ['OPS-EM-OTHER-ENDPOINTS'],
  async run(ctx) {
    const type = `${ctx.options.runTag}_undocumented_type`;
    const ex = await emList(ctx, type);
    ctx.observe('OPS-EM-OTHER-ENDPOINTS', `an undocumented object type answered ${ex.status} ${ex.text.slice(0, 120)}`);
  },
};

export const eventsChecks: OpsCheck[] = [listSeenTypes, listParameters, episodeActions, commentsAppendOnly, otherEndpoints, executeAction];
