import fc from 'fast-check';
import { checkProperty, Violation } from '../../core/property';
import { asDoc } from '../../core/json';
import { userObject } from '../arbitraries/values';
import { BACKUP, MAINTENANCE, SERVICE, statesOf, type Collection } from '../collections';
import { expectMerged, expectReplaced, serverFields } from '../ownership';
import { compact } from '../../core/expect';
import {
  createIn,
  createNeeded,
  deleteIn,
  entryOf,
  getIn,
  keyOf,
  ok,
  removeIn,
  tagged,
  updateIn,
  type Doc,
  type OpsCheck,
  type OpsContext,
} from '../support';

const title = (ctx: OpsContext, n: string) => tagged(ctx, `partial ${n}`);

/**
 * One object per case, removed at once: a property run never leaves its objects behind. A create that answers no
 * key fails the case against `requirement`, one the calling check declares (the checks here share this helper).
 */
async function withObject(
  ctx: OpsContext,
  initial: Doc,
  requirement: string,
  body: (key: string, sent: Doc) => Promise<void>,
  c: Collection = SERVICE,
): Promise<void> {
  const made = await createIn(ctx, c, 'partial', initial);
  if (!made.key) throw new Violation(`create of a ${c.type} with ${JSON.stringify(initial)} did not answer a key`, requirement, made.ex);
  try {
    await body(made.key, made.body);
  } finally {
    await removeIn(ctx, c, made);
  }
}

/** The object as it stands, read back before an update: what a partial update merges into. */
async function current(ctx: OpsContext, key: string, requirement: string, c: Collection = SERVICE): Promise<Doc> {
  const got = await getIn(ctx, c, key);
  if (!ok(got) || !got.json || typeof got.json !== 'object')
    throw new Violation(`GET ${c.type}/${key} answered ${got.status} before the update`, requirement, got);
  return got.json;
}

/**
 * Every update by key the document gives `is_partial_data` to: the core one (a service), the maintenance window's and
 * the backup job's. A job's run state is the server's to move ("Transitions for backup and restore jobs: not shown"):
 * its status and times may change between two reads, so they are held only to staying there.
 */
const MERGED: { c: Collection; moving: string[] }[] = [
  { c: SERVICE, moving: [] },
  { c: MAINTENANCE, moving: [] },
  { c: BACKUP, moving: ['status', 'start_time', 'end_time', 'last_queued_time', 'last_error', 'path'] },
];

/** Nested values where a deep merge and a shallow one differ (either is accepted): the case a small random budget rarely builds. */
const NESTED_CASE: [Doc, Doc] = [
  { cf_alpha: { x: 'kept', y: 1 }, cf_beta: ['a', 'b', 'c'] },
  { cf_alpha: { x: 'sent' }, cf_beta: ['d'] },
];

/**
 * A service holding fields of its own documented shape (a description, a KPI), patched on a made-up field only: a
 * partial update that rewrites the structured fields it was not sent (the KPIs dropped, say) changes more than it was sent.
 */
const DOCUMENTED_CASE: [Doc, Doc] = [{ description: 'kept as written', kpis: [{ title: 'partial kpi kept' }] }, { cf_note: 'sent' }];

export const partialUpdateMerges: OpsCheck = {
  id: 'ops.partial.merge',
  title:
    'POST <object_type>/<_key>?is_partial_data=1 (core, maintenance and backup) MUST change only the fields sent (merged into the object as it stood, sub-objects replaced or merged)',
  requirements: ['OPS-PARTIAL-MERGE', 'OPS-PARTIAL-VALUES', 'OPS-PARTIAL-NEW-FIELDS'],
  uses: statesOf(MERGED.map((m) => m.c)),
  async run(ctx) {
    const dropped = new Set<string>();
    // The interfaces are independent of each other: each is checked at the same time.
    await Promise.all(MERGED.map(({ c, moving }) => mergesIn(ctx, c, moving, dropped)));
    ctx.observe(
      'OPS-PARTIAL-NEW-FIELDS',
      dropped.size
        ? `partial updates left out fields outside the schema: ${[...dropped].sort().join(', ')}`
        : 'partial updates wrote every field outside the schema they sent',
    );
  },
};

/**
 * The merge property on one collection: after a partial update, the object read back holds what was sent, and every
 * field it did not send as read just before (the fields the server owns, and `moving` ones, may change but stay).
 */
async function mergesIn(ctx: OpsContext, c: Collection, moving: string[], dropped: Set<string>): Promise<void> {
  const owned = await serverFields(ctx, c);
  for (const f of moving) if (!owned.has(f)) owned.set(f, undefined);
  const merges = (initial: Doc, patch: Doc) =>
    withObject(
      ctx,
      initial,
      'OPS-PARTIAL-MERGE',
      async (key) => {
        const before = await current(ctx, key, 'OPS-PARTIAL-MERGE', c);
        // With the title, a field of every schema: made-up fields alone may all be left out (see expectMerged).
        const sent = { ...patch, title: title(ctx, 'patched') };
        const upd = await updateIn(ctx, c, key, sent, 1);
        // Maintenance and backup updates take "partial fields" by the document's own table: one refused is a partial
        // update not taken as one (a whole-object reading that misses required fields), not a value of the flag.
        if (!ok(upd))
          throw new Violation(
            `partial update of a ${c.type} with ${JSON.stringify(sent)} answered ${upd.status}`,
            c === SERVICE ? 'OPS-PARTIAL-VALUES' : 'OPS-PARTIAL-MERGE',
            upd,
          );
        const after = await getIn(ctx, c, key);
        for (const k of expectMerged(before, sent, after, owned, 'OPS-PARTIAL-MERGE', 'OPS-PARTIAL-MERGE', initial)) dropped.add(k);
      },
      c,
    );
  await checkProperty(
    ctx,
    ['OPS-PARTIAL-MERGE', 'OPS-PARTIAL-VALUES'],
    `${c.type} partial update`,
    fc.asyncProperty(userObject, userObject, merges),
    // The service, the first documented, at the full budget; the other two at half of it.
    c === SERVICE
      ? { examples: [NESTED_CASE, DOCUMENTED_CASE] }
      : { examples: [NESTED_CASE], runs: Math.max(2, Math.ceil(ctx.options.runs / 2)) },
  );
}

export const fullUpdateReplaces: OpsCheck = {
  id: 'ops.partial.replace',
  title:
    'POST <object_type>/<_key>?is_partial_data=0 (core, maintenance and backup) MUST replace the whole object, writing fields outside the schema too; 0 MUST be the default',
  requirements: ['OPS-PARTIAL-REPLACE', 'OPS-PARTIAL-UNKNOWN-FIELDS', 'OPS-PARTIAL-DEFAULT'],
  uses: statesOf(MERGED.map((m) => m.c)),
  async run(ctx) {
    const owned = await serverFields(ctx, SERVICE);
    const property = fc.asyncProperty(userObject, userObject, fc.boolean(), async (initial, replacement, explicit) => {
      await withObject(ctx, initial, 'OPS-PARTIAL-REPLACE', async (key, sent) => {
        const next = { ...replacement, title: title(ctx, 'replaced') };
        const upd = await updateIn(ctx, SERVICE, key, next, explicit ? 0 : undefined);
        const requirement = explicit ? 'OPS-PARTIAL-REPLACE' : 'OPS-PARTIAL-DEFAULT';
        if (!ok(upd))
          throw new Violation(
            `full update ${explicit ? 'with is_partial_data=0' : 'without is_partial_data'} answered ${upd.status}`,
            requirement,
            upd,
          );
        const got = await getIn(ctx, SERVICE, key);
        const now = asDoc(got.json ?? {});
        const unknownLost = Object.keys(replacement).filter((k) => now[k] === undefined);
        if (unknownLost.length)
          throw new Violation(`fields outside the schema were not written: ${unknownLost.join(', ')}`, 'OPS-PARTIAL-UNKNOWN-FIELDS', got);
        expectReplaced(sent, next, got, owned, requirement);
      });
    });
    await checkProperty(ctx, ['OPS-PARTIAL-REPLACE', 'OPS-PARTIAL-UNKNOWN-FIELDS', 'OPS-PARTIAL-DEFAULT'], 'full update', property);
    // The maintenance and backup updates by key take the flag too: each at half the budget, beside each other.
    await Promise.all(MERGED.filter((m) => m.c !== SERVICE).map(({ c, moving }) => replacesIn(ctx, c, moving)));
  },
};

/**
 * A full update of a maintenance window or a backup job, with is_partial_data=0 or without it (0 is the default on
 * every update that takes the flag): it carries what a valid object of the type needs (its template, and a window's
 * services) and other made-up fields, and the made-up fields of the object it replaces are gone. A job's run state
 * is the server's to move, so it is not compared.
 */
async function replacesIn(ctx: OpsContext, c: Collection, moving: string[]): Promise<void> {
  const owned = await serverFields(ctx, c);
  const without = (d: Doc) => Object.fromEntries(Object.entries(d).filter(([k]) => !moving.includes(k)));
  const property = fc.asyncProperty(userObject, userObject, fc.boolean(), async (initial, replacement, explicit) => {
    const requirement = explicit ? 'OPS-PARTIAL-REPLACE' : 'OPS-PARTIAL-DEFAULT';
    await withObject(
      ctx,
      initial,
      requirement,
      async (key, sent) => {
        const needed = Object.fromEntries(Object.entries(sent).filter(([k]) => !(k in initial) && k !== 'title'));
        const next = { ...needed, ...replacement, title: title(ctx, 'replaced') };
        const upd = await updateIn(ctx, c, key, next, explicit ? 0 : undefined);
        const how = explicit ? 'with is_partial_data=0' : 'without is_partial_data';
        if (!ok(upd)) throw new Violation(`full update of a ${c.type} ${how} answered ${upd.status}`, requirement, upd);
        const got = await getIn(ctx, c, key);
        const now = asDoc(got.json ?? {});
        const unknownLost = Object.keys(replacement).filter((k) => now[k] === undefined);
        if (unknownLost.length)
          throw new Violation(`fields outside the schema were not written: ${unknownLost.join(', ')}`, 'OPS-PARTIAL-UNKNOWN-FIELDS', got);
        expectReplaced(without(sent), without(next), got, owned, requirement);
      },
      c,
    );
  });
  await checkProperty(
    ctx,
    ['OPS-PARTIAL-REPLACE', 'OPS-PARTIAL-UNKNOWN-FIELDS', 'OPS-PARTIAL-DEFAULT'],
    `${c.type} full update`,
    property,
    {
      runs: Math.max(2, Math.ceil(ctx.options.runs / 2)),
      // Both forms at least once, whatever the budget draws.
      examples: [
        [{ cf_a: 'one' }, { cf_b: 'two' }, true],
        [{ cf_a: 'one' }, { cf_b: 'two' }, false],
      ],
    },
  );
}

export const fullUpdateNeedsRequiredFields: OpsCheck = {
  id: 'ops.partial.required-fields',
  title: 'A full update (is_partial_data=0) of a service without its required title MUST be refused and change nothing',
  requirements: ['OPS-PARTIAL-REQUIRED-FIELDS', 'OPS-CORE-CREATE'],
  async run(ctx) {
    // A create without the title is outside the documented shape ("the required fields of the schema must be present"
    // is said of a full update): what a server does with it is recorded, not judged.
    const untitled = await ctx.http.send('coreCreate', { params: { object_type: 'service' }, body: { cf_note: tagged(ctx, 'untitled') } });
    const made = ok(untitled) ? keyOf(untitled) : undefined;
    if (made) ctx.ledger.add(entryOf(SERVICE, made), () => deleteIn(ctx, SERVICE, made));
    const read = made ? await getIn(ctx, SERVICE, made) : undefined;
    ctx.observe(
      'OPS-CORE-CREATE',
      `a create without title answered ${untitled.status} ${compact(untitled.json)}${read ? `, and its key reads ${read.status}` : ''}`,
    );
    const { key, body } = await createNeeded(ctx, SERVICE, 'required title', { cf_note: 'kept' });
    const upd = await updateIn(ctx, SERVICE, key, { cf_note: 'no title' }, 0);
    ctx.expect.status('OPS-PARTIAL-REQUIRED-FIELDS', 'a full update without title', upd, 'not 2xx');
    const got = (await getIn(ctx, SERVICE, key)).json;
    ctx.expect.equal(
      'OPS-PARTIAL-REQUIRED-FIELDS',
      'title and cf_note after the refused update',
      { title: got?.title, cf_note: got?.cf_note },
      { title: body.title, cf_note: 'kept' },
    );
  },
};

/** The rule a bulk update's fields not sent are held to, by the flag it sent: the endpoint's own where none was sent. */
const RULE_OF_FLAG = { 1: 'OPS-PARTIAL-MERGE', 0: 'OPS-PARTIAL-REPLACE', none: 'OPS-PARTIAL-DEFAULT' } as const;

export const bulkUpdate: OpsCheck = {
  id: 'ops.core.bulk-update',
  title: 'bulk_update MUST apply each object by its _key: merging with is_partial_data=1, replacing with 0 or without is_partial_data',
  requirements: ['OPS-CORE-BULK-UPDATE', 'OPS-PARTIAL-MERGE', 'OPS-PARTIAL-REPLACE', 'OPS-PARTIAL-DEFAULT'],
  async run(ctx) {
    const owned = await serverFields(ctx, SERVICE);
    const property = (partial: 0 | 1 | undefined) =>
      fc.asyncProperty(fc.array(fc.tuple(userObject, userObject), { minLength: 1, maxLength: 3 }), async (pairs) => {
        const made = await Promise.all(pairs.map(([initial], i) => createIn(ctx, SERVICE, `bulk ${i}`, initial)));
        try {
          if (made.some((m) => !m.key)) throw new Violation('create did not answer a key', 'OPS-CORE-BULK-UPDATE');
          const before = await Promise.all(made.map((m) => current(ctx, m.key!, 'OPS-CORE-BULK-UPDATE')));
          const payload = made.map((m, i) => ({ ...pairs[i][1], _key: m.key, title: title(ctx, `bulk ${i}`) }));
          const ex = await ctx.http.send('coreBulkUpdate', {
            params: { object_type: 'service' },
            query: partial === undefined ? undefined : { is_partial_data: partial },
            body: payload,
          });
          if (!ok(ex))
            throw new Violation(
              `bulk_update ${partial === undefined ? 'without is_partial_data' : `with is_partial_data=${partial}`} answered ${ex.status}`,
              'OPS-CORE-BULK-UPDATE',
              ex,
            );
          // A sent field that does not read as sent is the bulk update's (it did not reach that key); what became of
          // the fields not sent is the flag's rule.
          const rest = RULE_OF_FLAG[partial ?? 'none'];
          for (const [i, m] of made.entries()) {
            const got = await getIn(ctx, SERVICE, m.key!);
            const { _key, ...sent } = payload[i];
            if (partial === 1) expectMerged(before[i], sent, got, owned, 'OPS-CORE-BULK-UPDATE', rest, pairs[i][0]);
            else expectReplaced(m.body, sent, got, owned, 'OPS-CORE-BULK-UPDATE', rest);
          }
        } finally {
          for (const m of made) await removeIn(ctx, SERVICE, m);
        }
      });
    // Each flag value a property of its own, so that a failure under one leaves the others judged. The merging one
    // always tries values where a deep and a shallow merge differ, on two objects with different patches, so that an
    // update applied to the first key only, or each patch to the other key, is seen.
    const runs = Math.max(2, Math.ceil(ctx.options.runs / 4));
    await checkProperty(ctx, ['OPS-CORE-BULK-UPDATE', 'OPS-PARTIAL-MERGE'], 'bulk update with is_partial_data=1', property(1), {
      runs,
      examples: [
        [
          [
            [
              { cf_alpha: { x: 'kept', y: 1 }, cf_beta: ['a', 'b', 'c'] },
              { cf_alpha: { x: 'sent', y: 2 }, cf_beta: ['d'] },
            ],
            [{ cf_gamma: 'first' }, { cf_delta: 'second' }],
          ],
        ],
        [[DOCUMENTED_CASE, [{ kpis: [{ title: 'partial kpi other' }] }, { description: 'sent' }]]],
      ],
    });
    await checkProperty(ctx, ['OPS-CORE-BULK-UPDATE', 'OPS-PARTIAL-REPLACE'], 'bulk update with is_partial_data=0', property(0), { runs });
    await checkProperty(ctx, ['OPS-CORE-BULK-UPDATE', 'OPS-PARTIAL-DEFAULT'], 'bulk update without is_partial_data', property(undefined), {
      runs,
    });
  },
};
