import type { Check, CheckContext } from '../../core/check';
import { BACKUP } from '../collections';
import { assertWholeCount, bulkDeleteIn, countIn, countOf, createIn, deleteIn, getIn, keyOf, keys, listIn, ok, ownFilter, rows, tagged, type Doc } from '../support';
import { readableCountCheck } from './maintenance';

const SPACED = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const STRINGS = ['title', 'job_type', 'status', 'path', 'search_head_id', 'platform_server', 'last_error', '_owner'];
const NUMBERS = ['start_time', 'end_time', 'last_queued_time'];

/** Type problems of the fields the document lists for a job; absent fields are not judged (a queued job has no path yet). */
function jobFieldProblems(d: Doc): string[] {
  const bad = STRINGS.filter((f) => d[f] !== undefined && typeof d[f] !== 'string').map((f) => `${f} is ${JSON.stringify(d[f])}`);
  bad.push(...NUMBERS.filter((f) => d[f] !== undefined && typeof d[f] !== 'number').map((f) => `${f} is ${JSON.stringify(d[f])}`));
  if (d.create_time !== undefined && !(typeof d.create_time === 'string' && SPACED.test(d.create_time))) bad.push(`create_time is ${JSON.stringify(d.create_time)}`);
  if (d.rules !== undefined && !Array.isArray(d.rules)) bad.push(`rules is ${JSON.stringify(d.rules)}`);
  return bad;
}

/** The default scheduled backup as the server lists it: found by its title, or failing that by its key. */
async function defaultBackup(ctx: CheckContext): Promise<Doc | undefined> {
  const all = rows(await listIn(ctx, BACKUP));
  return all.find((j) => /^default scheduled backup$/i.test(String(j.title ?? '').trim())) ?? all.find((j) => /default/i.test(String(j._key)) && /schedul/i.test(`${j._key} ${j.title}`));
}

const objectType: Check = {
  id: 'ops.backup.object-type',
  title: 'The backup interface MUST serve backup_restore: its list is an array of jobs that all carry object_type backup_restore',
  requirements: ['OPS-BR-OBJECT-TYPE', 'OPS-BR-LIST'],
  shares: ['backup'],
  async run(ctx) {
    const ex = await listIn(ctx, BACKUP);
    ctx.assert('OPS-BR-LIST', ok(ex) && Array.isArray(ex.json), `GET backup_restore answered ${ex.status} ${Array.isArray(ex.json) ? `with ${rows(ex).length} jobs` : ex.text.slice(0, 80)}`, ex);
    const wrong = rows(ex).filter((j) => j.object_type !== 'backup_restore');
    ctx.assert('OPS-BR-OBJECT-TYPE', ok(ex) && wrong.length === 0, wrong.length ? `jobs with another object_type: ${wrong.slice(0, 3).map((j) => `${j._key}=${JSON.stringify(j.object_type)}`).join(', ')}` : `every listed job is a backup_restore (${rows(ex).length})`, ex);
  },
};

const createAndRead: Check = {
  id: 'ops.backup.create-read',
  title: "POST backup_restore with the sample's title, job_type and status MUST answer {_key}; the job MUST read back by key and in the list with what was sent, as object_type backup_restore",
  requirements: ['OPS-BR-CREATE', 'OPS-BR-GET', 'OPS-BR-LIST', 'OPS-BR-OBJECT-TYPE', 'OPS-BR-FIELDS', 'OPS-BR-TRANSITIONS'],
  shares: ['backup'],
  async run(ctx) {
    const made = await createIn(ctx, BACKUP, 'backup job', { job_type: 'Backup', status: 'Queued' });
    if (!ctx.assert('OPS-BR-CREATE', ok(made.ex) && made.key !== undefined, `POST backup_restore answered ${made.ex.status} ${made.ex.text.slice(0, 100)}`, made.ex)) return;
    const got = await getIn(ctx, BACKUP, made.key!);
    const d = (got.json ?? {}) as Doc;
    ctx.assert('OPS-BR-GET', ok(got) && d._key === made.key && d.title === made.body.title && d.job_type === 'Backup', `GET backup_restore/${made.key} answered ${got.status} with ${JSON.stringify({ _key: d._key, title: d.title, job_type: d.job_type })}`, got);
    ctx.assert('OPS-BR-OBJECT-TYPE', d.object_type === 'backup_restore', `the job reads object_type ${JSON.stringify(d.object_type)}`, got);
    const problems = jobFieldProblems(d);
    ctx.assert('OPS-BR-FIELDS', problems.length === 0, problems.length ? `fields of other types than the document lists: ${problems.join('; ')}` : `the job's listed fields have the types seen (${STRINGS.concat(NUMBERS, ['create_time', 'rules']).filter((f) => d[f] !== undefined).join(', ')})`, got);
    const list = await listIn(ctx, BACKUP, { filter: ownFilter(ctx) });
    const row = rows(list).find((r) => r._key === made.key);
    ctx.assert('OPS-BR-LIST', !!row && row.title === made.body.title, row ? 'the new job is listed with its title' : `the list of the run's jobs (${list.status}) does not hold ${made.key}`, list);
    const statuses = row ? [d.status, row.status] : [d.status];
    ctx.assert('OPS-BR-TRANSITIONS', statuses.every((s) => typeof s === 'string'), `a job created Queued reads status ${JSON.stringify(d.status)}, then ${JSON.stringify(row?.status)} in the list`);
    ctx.observe('OPS-BR-TRANSITIONS', `a job created with status Queued reads ${JSON.stringify(d.status)} and then ${JSON.stringify(row?.status)}`);
  },
};

const updateDeleteCount: Check = {
  id: 'ops.backup.update-delete-count',
  title: 'POST backup_restore/<_key> MUST update the job and answer {_key}; DELETE by key MUST remove only that job; count MUST follow the filter and equal the list without one',
  requirements: ['OPS-BR-UPDATE', 'OPS-BR-DELETE', 'OPS-BR-COUNT'],
  shares: ['backup'],
  async run(ctx) {
    const made = await Promise.all(['a', 'b', 'c'].map((n) => createIn(ctx, BACKUP, `backup ${n}`, { job_type: 'Backup', status: 'Queued' })));
    const ks = made.map((m) => m.key).filter((k): k is string => Boolean(k));
    if (ks.length < 3) return ctx.untested('OPS-BR-UPDATE', 'could not create three jobs');
    const title = tagged(ctx, 'backup a renamed');
    const upd = await ctx.http.send('brUpdate', { params: { object_type: 'backup_restore', _key: ks[0] }, query: { is_partial_data: 1 }, body: { title } });
    ctx.assert('OPS-BR-UPDATE', ok(upd) && keyOf(upd) === ks[0], `a partial update answered ${upd.status} with _key ${JSON.stringify(keyOf(upd))}`, upd);
    const after = (await getIn(ctx, BACKUP, ks[0])).json as Doc;
    ctx.assert('OPS-BR-UPDATE', after?.title === title && after?.job_type === 'Backup', `after renaming, the job reads ${JSON.stringify({ title: after?.title, job_type: after?.job_type })}`);
    const own = await countIn(ctx, BACKUP, { filter: ownFilter(ctx) });
    ctx.assert('OPS-BR-COUNT', ok(own) && countOf(own) === 3, `count of the run's jobs is ${own.status} ${own.text.slice(0, 60)} with three created`, own);
    // Without a filter every job counts, and other checks may be writing: compare count and list at rest.
    await assertWholeCount(ctx, BACKUP, 'OPS-BR-COUNT', 'jobs');
    const del = await deleteIn(ctx, BACKUP, ks[1]);
    ctx.assert('OPS-BR-DELETE', ok(del), `DELETE backup_restore/${ks[1]} answered ${del.status}`, del);
    const gone = await getIn(ctx, BACKUP, ks[1]);
    ctx.assert('OPS-BR-DELETE', !ok(gone), `GET of the deleted job answered ${gone.status}`, gone);
    const left = keys(rows(await listIn(ctx, BACKUP, { filter: ownFilter(ctx) })));
    ctx.assert('OPS-BR-DELETE', left.includes(ks[0]) && left.includes(ks[2]) && !left.includes(ks[1]), `after deleting ${ks[1]} the run's jobs are ${JSON.stringify(left)}`);
    const still = countOf(await countIn(ctx, BACKUP, { filter: ownFilter(ctx) }));
    ctx.assert('OPS-BR-DELETE', still === 2, `after one delete the count of the run's jobs is ${still}`);
  },
};

const defaultSurvivesSingle: Check = {
  id: 'ops.backup.default-survives-single-delete',
  title: 'DELETE backup_restore/<_key> of the default scheduled backup MUST NOT delete it: it still reads back afterwards',
  requirements: ['OPS-BR-DEFAULT-SURVIVES-SINGLE'],
  shares: ['backup'],
  destructive: true,
  async run(ctx) {
    const found = await defaultBackup(ctx);
    if (!found) return ctx.untested('OPS-BR-DEFAULT-SURVIVES-SINGLE', 'no job titled "Default Scheduled Backup" is listed');
    const key = String(found._key);
    const del = await deleteIn(ctx, BACKUP, key);
    ctx.observe('OPS-BR-DEFAULT-SURVIVES-SINGLE', `DELETE of the default scheduled backup answered ${del.status} ${del.text.slice(0, 120)}`);
    const got = await getIn(ctx, BACKUP, key);
    const listed = keys(rows(await listIn(ctx, BACKUP))).includes(key);
    ctx.assert('OPS-BR-DEFAULT-SURVIVES-SINGLE', ok(got) && (got.json as Doc)?._key === key && listed, `after DELETE backup_restore/${key} (${del.status}) the job reads ${got.status} and is ${listed ? '' : 'not '}listed`, got);
  },
};

const defaultSurvivesBulk: Check = {
  id: 'ops.backup.default-survives-bulk-delete',
  title: 'A bulk DELETE of backup_restore that selects the default scheduled backup MUST leave it in place, while deleting the ordinary jobs it selects',
  requirements: ['OPS-BR-DEFAULT-SURVIVES-BULK', 'OPS-BR-BULK-DELETE'],
  shares: ['backup'],
  destructive: true,
  async run(ctx) {
    const found = await defaultBackup(ctx);
    if (!found) return ctx.untested('OPS-BR-DEFAULT-SURVIVES-BULK', 'no job titled "Default Scheduled Backup" is listed');
    const key = String(found._key);
    const mine = await createIn(ctx, BACKUP, 'bulk beside default', { job_type: 'Backup', status: 'Queued' });
    // One filter per target, both in the equality form the document shows, so nothing else can be selected.
    const own = mine.key ? await bulkDeleteIn(ctx, BACKUP, { filter: JSON.stringify({ _key: mine.key }) }) : undefined;
    const bulk = await bulkDeleteIn(ctx, BACKUP, { filter: JSON.stringify({ _key: key }) });
    ctx.observe('OPS-BR-DEFAULT-SURVIVES-BULK', `a bulk DELETE selecting the default scheduled backup answered ${bulk.status} ${bulk.text.slice(0, 120)}`);
    const got = await getIn(ctx, BACKUP, key);
    const listed = keys(rows(await listIn(ctx, BACKUP))).includes(key);
    ctx.assert('OPS-BR-DEFAULT-SURVIVES-BULK', ok(got) && listed, `after a bulk DELETE with filter {_key: ${key}} (${bulk.status}) the default job reads ${got.status} and is ${listed ? '' : 'not '}listed`, got);
    if (!own || !mine.key) return ctx.untested('OPS-BR-BULK-DELETE', `could not create a job beside the default (${mine.ex.status})`);
    const ownGone = await getIn(ctx, BACKUP, mine.key);
    ctx.assert('OPS-BR-BULK-DELETE', ok(own) && !ok(ownGone), `a bulk DELETE with filter {_key: ${mine.key}} answered ${own.status}; the job then reads ${ownGone.status}`, ownGone);
  },
};

export const backupChecks: Check[] = [
  objectType,
  createAndRead,
  updateDeleteCount,
  readableCountCheck(BACKUP, 'ops.backup.counts-readable', 'OPS-BR-COUNT'),
  defaultSurvivesSingle,
  defaultSurvivesBulk,
];
