import { compact } from '../../core/expect';
import { asDoc } from '../../core/json';
import { need, Unmet } from '../../core/precondition';
import { BACKUP } from '../collections';
import {
  allNeeded,
  assertWholeCount,
  bulkDeleteIn,
  countIn,
  countOf,
  createIn,
  deleteIn,
  getIn,
  keyOf,
  keys,
  lackingFields,
  listIn,
  ok,
  ownFilter,
  rows,
  schemaFields,
  schemaFindings,
  tagged,
  type Doc,
  type OpsCheck,
  type OpsContext,
} from '../support';
import { deleteOneOfThree } from '../delete-one';
import { readableCountCheck } from './maintenance';

/**
 * Type problems of the fields the document lists for a job, as the BackupJob schema gives them (its object_type is
 * OPS-BR-OBJECT-TYPE's); absent fields are not judged (a queued job has no path yet), nor does the schema require any.
 */
const jobFieldProblems = (d: Doc) =>
  schemaFindings('BackupJob', d)
    .filter((f) => f.requirement === 'OPS-BR-FIELD-TYPES')
    .map((f) => f.message);

/** The default scheduled backup as the server lists it: found by its title, or failing that by its key. */
async function defaultBackup(ctx: OpsContext): Promise<Doc | undefined> {
  const all = rows(await listIn(ctx, BACKUP));
  return (
    all.find((j) => /^default scheduled backup$/i.test(String(j.title ?? '').trim())) ??
    all.find((j) => /default/i.test(String(j._key)) && /schedul/i.test(`${j._key} ${j.title}`))
  );
}

const objectType: OpsCheck = {
  id: 'ops.backup.object-type',
  title: 'The backup interface MUST serve backup_restore: its list is an array of jobs that all carry object_type backup_restore',
  requirements: ['OPS-BR-OBJECT-TYPE', 'OPS-BR-LIST'],
  shares: ['backup'],
  async run(ctx) {
    const ex = await listIn(ctx, BACKUP);
    ctx.expect.that(
      'OPS-BR-LIST',
      'GET backup_restore',
      ok(ex) && Array.isArray(ex.json),
      {
        expected: 'a success with an array of jobs',
        actual: `${ex.status} ${Array.isArray(ex.json) ? `with ${rows(ex).length} jobs` : ex.text.slice(0, 80)}`,
      },
      ex,
    );
    const wrong = rows(ex).filter((j) => j.object_type !== 'backup_restore');
    ctx.expect.equal(
      'OPS-BR-OBJECT-TYPE',
      'GET backup_restore: success, and listed jobs of another object_type',
      { success: ok(ex), other: wrong.map((j) => `${j._key}=${JSON.stringify(j.object_type)}`) },
      { success: true, other: [] },
      ex,
    );
  },
};

const createAndRead: OpsCheck = {
  id: 'ops.backup.create-read',
  title:
    "POST backup_restore with the sample's title, job_type and status MUST answer {_key}; the job MUST read back by key and in the list with what was sent, as object_type backup_restore",
  requirements: [
    'OPS-BR-CREATE',
    'OPS-BR-GET',
    'OPS-BR-LIST',
    'OPS-BR-OBJECT-TYPE',
    'OPS-BR-FIELDS',
    'OPS-BR-FIELD-TYPES',
    'OPS-BR-TRANSITIONS',
  ],
  shares: ['backup'],
  async run(ctx) {
    const made = await createIn(ctx, BACKUP, 'backup job', { job_type: 'Backup', status: 'Queued' });
    if (
      !ctx.expect.that(
        'OPS-BR-CREATE',
        'POST backup_restore',
        ok(made.ex) && made.key !== undefined,
        { expected: 'a success with {_key}', actual: `${made.ex.status} ${made.ex.text.slice(0, 100)}` },
        made.ex,
      )
    )
      return;
    const got = await getIn(ctx, BACKUP, made.key!);
    const d = asDoc(got.json ?? {});
    ctx.expect.equal(
      'OPS-BR-GET',
      `GET backup_restore/${made.key}: success, _key, title and job_type`,
      { success: ok(got), _key: d._key, title: d.title, job_type: d.job_type },
      { success: true, _key: made.key, title: made.body.title, job_type: 'Backup' },
      got,
    );
    ctx.expect.equal('OPS-BR-OBJECT-TYPE', 'object_type of the job', d.object_type, 'backup_restore', got);
    ctx.expect.equal(
      'OPS-BR-FIELD-TYPES',
      `listed fields of the job (${schemaFields('BackupJob')
        .filter((f) => f !== 'object_type' && d[f] !== undefined)
        .join(', ')}) of other types than the document lists`,
      jobFieldProblems(d),
      [],
      got,
    );
    const list = await listIn(ctx, BACKUP, { filter: ownFilter(ctx) });
    const row = rows(list).find((r) => r._key === made.key);
    ctx.expect.that(
      'OPS-BR-LIST',
      `the list of the run's jobs, against ${made.key}`,
      !!row && row.title === made.body.title,
      {
        expected: `the job, titled ${compact(made.body.title)}`,
        actual: row ? `titled ${compact(row.title)}` : `not listed (${list.status})`,
      },
      list,
    );
    const statuses = row ? [d.status, row.status] : [d.status];
    ctx.expect.that(
      'OPS-BR-FIELD-TYPES',
      'status of a job created Queued, read by key and in the list',
      statuses.every((s) => typeof s === 'string'),
      { expected: 'strings', actual: compact(statuses) },
    );
    ctx.observe(
      'OPS-BR-TRANSITIONS',
      `a job created with status Queued reads ${JSON.stringify(d.status)} and then ${JSON.stringify(row?.status)}`,
    );
    // Of the fields seen on jobs, those every job has from its creation on (times of a run come with the run).
    ctx.expect.equal('OPS-BR-FIELDS', 'fields listed for jobs that a new job lacks', lackingFields(d, NEW_JOB_FIELDS), [], got);
    await otherJobForms(ctx);
  },
};

const NEW_JOB_FIELDS = ['title', 'job_type', 'status', 'create_time', '_owner'];

/** A job with the listed rules array, and a restore job: what was written must read back (a restore may be refused). */
async function otherJobForms(ctx: OpsContext) {
  const ruled = await createIn(ctx, BACKUP, 'job with rules', { job_type: 'Backup', status: 'Queued', rules: [] });
  const created = ctx.expect.that(
    'OPS-BR-CREATE',
    'POST backup_restore with rules: [] (an array, as the document lists rules)',
    ok(ruled.ex) && ruled.key !== undefined,
    { expected: 'a success with {_key}', actual: `${ruled.ex.status} ${ruled.ex.text.slice(0, 100)}` },
    ruled.ex,
  );
  if (created) {
    const read = await getIn(ctx, BACKUP, ruled.key!);
    ctx.expect.equal('OPS-BR-GET', 'rules of the job written with rules: []', asDoc(read.json ?? {}).rules, [], read);
  }
  const restore = await createIn(ctx, BACKUP, 'restore job', { job_type: 'Restore', status: 'Queued' });
  if (!restore.key)
    return ctx.observe('OPS-BR-CREATE', `a job with job_type Restore was refused: ${restore.ex.status} ${restore.ex.text.slice(0, 100)}`);
  const read = await getIn(ctx, BACKUP, restore.key);
  ctx.expect.equal('OPS-BR-GET', 'job_type of the job written as Restore', asDoc(read.json ?? {}).job_type, 'Restore', read);
}

const updateDeleteCount: OpsCheck = {
  id: 'ops.backup.update-delete-count',
  title:
    'POST backup_restore/<_key> MUST update the job and answer {_key}; DELETE by key MUST remove only that job; count MUST follow the filter and equal the list without one',
  requirements: ['OPS-BR-UPDATE', 'OPS-BR-DELETE', 'OPS-BR-COUNT'],
  shares: ['backup'],
  async run(ctx) {
    const made = allNeeded(
      await Promise.all(['a', 'b', 'c'].map((n) => createIn(ctx, BACKUP, `backup ${n}`, { job_type: 'Backup', status: 'Queued' }))),
      'three jobs',
    );
    const ks = made.map((m) => m.key);
    const title = tagged(ctx, 'backup a renamed');
    const upd = await ctx.http.send('brUpdate', {
      params: { object_type: 'backup_restore', _key: ks[0] },
      query: { is_partial_data: 1 },
      body: { title },
    });
    ctx.expect.equal(
      'OPS-BR-UPDATE',
      'a partial update: success and _key',
      { success: ok(upd), _key: keyOf(upd) },
      { success: true, _key: ks[0] },
      upd,
    );
    const after = (await getIn(ctx, BACKUP, ks[0])).json;
    ctx.expect.equal(
      'OPS-BR-UPDATE',
      'title and job_type after renaming',
      { title: after?.title, job_type: after?.job_type },
      { title, job_type: 'Backup' },
    );
    const own = await countIn(ctx, BACKUP, { filter: ownFilter(ctx) });
    ctx.expect.equal(
      'OPS-BR-COUNT',
      "count of the run's jobs (three created): success and count",
      { success: ok(own), count: countOf(own) },
      { success: true, count: 3 },
      own,
    );
    // Without a filter every job counts, and other checks may be writing: compare count and list at rest.
    await assertWholeCount(ctx, BACKUP, 'OPS-BR-COUNT', 'jobs');
    await deleteOneOfThree(ctx, BACKUP, ks);
  },
};

const defaultSurvivesSingle: OpsCheck = {
  id: 'ops.backup.default-survives-single-delete',
  title: 'DELETE backup_restore/<_key> of the default scheduled backup MUST NOT delete it: it still reads back afterwards',
  requirements: ['OPS-BR-DEFAULT-SURVIVES-SINGLE'],
  shares: ['backup'],
  destructive: true,
  async run(ctx) {
    const found = need(await defaultBackup(ctx), 'no job titled "Default Scheduled Backup" is listed');
    const key = String(found._key);
    const del = await deleteIn(ctx, BACKUP, key);
    ctx.observe(
      'OPS-BR-DEFAULT-SURVIVES-SINGLE',
      `DELETE of the default scheduled backup answered ${del.status} ${del.text.slice(0, 120)}`,
    );
    const got = await getIn(ctx, BACKUP, key);
    const listed = keys(rows(await listIn(ctx, BACKUP))).includes(key);
    ctx.expect.equal(
      'OPS-BR-DEFAULT-SURVIVES-SINGLE',
      `the default job after DELETE backup_restore/${key} (${del.status}): read by key, _key, listed`,
      { reads: ok(got), _key: got.json?._key, listed },
      { reads: true, _key: key, listed: true },
      got,
    );
  },
};

const defaultSurvivesBulk: OpsCheck = {
  id: 'ops.backup.default-survives-bulk-delete',
  title:
    'A bulk DELETE of backup_restore that selects the default scheduled backup MUST leave it in place, while deleting the ordinary jobs it selects',
  requirements: ['OPS-BR-DEFAULT-SURVIVES-BULK', 'OPS-BR-BULK-DELETE'],
  shares: ['backup'],
  destructive: true,
  async run(ctx) {
    const found = need(await defaultBackup(ctx), 'no job titled "Default Scheduled Backup" is listed');
    const key = String(found._key);
    const mine = await createIn(ctx, BACKUP, 'bulk beside default', { job_type: 'Backup', status: 'Queued' });
    // One filter per target, both in the equality form the document shows, so nothing else can be selected.
    const own = mine.key ? await bulkDeleteIn(ctx, BACKUP, { filter: JSON.stringify({ _key: mine.key }) }) : undefined;
    const bulk = await bulkDeleteIn(ctx, BACKUP, { filter: JSON.stringify({ _key: key }) });
    ctx.observe(
      'OPS-BR-DEFAULT-SURVIVES-BULK',
      `a bulk DELETE selecting the default scheduled backup answered ${bulk.status} ${bulk.text.slice(0, 120)}`,
    );
    const got = await getIn(ctx, BACKUP, key);
    const listed = keys(rows(await listIn(ctx, BACKUP))).includes(key);
    ctx.expect.equal(
      'OPS-BR-DEFAULT-SURVIVES-BULK',
      `the default job after a bulk DELETE with filter {_key: ${key}} (${bulk.status}): read by key, listed`,
      { reads: ok(got), listed },
      { reads: true, listed: true },
      got,
    );
    if (!own || !mine.key) throw new Unmet(`could not create a job beside the default (${mine.ex.status})`, mine.ex);
    const ownGone = await getIn(ctx, BACKUP, mine.key);
    ctx.expect.equal(
      'OPS-BR-BULK-DELETE',
      `a bulk DELETE with filter {_key: ${mine.key}}: success, and whether the job still reads`,
      { success: ok(own), reads: ok(ownGone) },
      { success: true, reads: false },
      ownGone,
    );
  },
};

export const backupChecks: OpsCheck[] = [
  objectType,
  createAndRead,
  updateDeleteCount,
  readableCountCheck(BACKUP, 'ops.backup.counts-readable', 'OPS-BR-COUNT'),
  defaultSurvivesSingle,
  defaultSurvivesBulk,
];
