import type { Check, CheckContext } from '../../core/check';
import { ENTITY, SERVICE } from '../collections';
import { createIn, getIn, keys, listIn, ok, rows, type Doc } from '../support';

async function serviceWithEntities(ctx: CheckContext, n: number, extra: Doc = {}) {
  const svc = await createIn(ctx, SERVICE, 'Retire Service');
  if (!svc.key) return undefined;
  const link = [{ _key: svc.key, title: svc.body.title }];
  const entities = [];
  for (let i = 0; i < n; i++) {
    const e = await createIn(ctx, ENTITY, `Retire Entity ${i}`, { services: link, ...extra });
    if (!e.key) return undefined;
    entities.push(e.key);
  }
  return { service: svc.key, entities };
}

const linkedTo = async (ctx: CheckContext, service: string) => keys(rows(await listIn(ctx, ENTITY, { filter: JSON.stringify({ 'services._key': service }) })));

export const retireAndRestore: Check = {
  id: 'ops.entity.retire-restore',
  title: 'entity/retire MUST retire the listed entities and un-link them from their services; entity/restore MUST re-link them',
  requirements: ['OPS-ENTITY-RETIRE', 'OPS-ENTITY-RESTORE', 'OPS-ENTITY-RETIRED-FORM'],
  async run(ctx) {
    const made = await serviceWithEntities(ctx, 2);
    if (!made) return ctx.untested('OPS-ENTITY-RETIRE', 'could not create a service with two linked entities');
    const [a, b] = made.entities;
    const retire = await ctx.http.send('entityRetire', { body: { data: [a] } });
    const retired = Array.isArray(retire.json) ? (retire.json as unknown[]).map(String) : [];
    ctx.assert('OPS-ENTITY-RETIRE', ok(retire) && retired.includes(a) && !retired.includes(b), `retire answered ${retire.status} ${retire.text.slice(0, 120)}`, retire);
    const linked = await linkedTo(ctx, made.service);
    ctx.assert('OPS-ENTITY-RETIRE', !linked.includes(a) && linked.includes(b), `after retiring ${a}, the service's entities are ${JSON.stringify(linked)}`);
    const read = await getIn(ctx, ENTITY, a);
    const fields = Object.keys((read.json as Doc) ?? {}).filter((k) => /retire/i.test(k));
    ctx.observe('OPS-ENTITY-RETIRED-FORM', `a retired entity reads ${read.status} with services ${JSON.stringify((read.json as Doc)?.services)} and ${fields.length ? fields.map((f) => `${f}=${JSON.stringify((read.json as Doc)[f])}`).join(', ') : 'no field naming retirement'}`);

    const restore = await ctx.http.send('entityRestore', { body: { data: [a] } });
    ctx.assert('OPS-ENTITY-RESTORE', ok(restore) && restore.text.includes(a), `restore answered ${restore.status} ${restore.text.slice(0, 120)}`, restore);
    const relinked = await linkedTo(ctx, made.service);
    ctx.assert('OPS-ENTITY-RESTORE', relinked.includes(a) && relinked.includes(b), `after restoring ${a}, the service's entities are ${JSON.stringify(relinked)}`);
  },
};

export const countRetirable: Check = {
  id: 'ops.entity.count-retirable',
  title: 'entity/count_retirable MUST list the entities flagged retirable, with object_type, title, retirable, sec_grp, _key and permissions',
  requirements: ['OPS-ENTITY-COUNT-RETIRABLE'],
  async run(ctx) {
    const flagged = await createIn(ctx, ENTITY, 'Retirable Entity', { retirable: 1 });
    const plain = await createIn(ctx, ENTITY, 'Kept Entity');
    if (!flagged.key || !plain.key) return ctx.untested('OPS-ENTITY-COUNT-RETIRABLE', 'could not create entities');
    const ex = await ctx.http.send('entityCountRetirable');
    const list = Array.isArray(ex.json) ? (ex.json as Doc[]) : [];
    const mine = list.find((e) => e._key === flagged.key);
    ctx.assert('OPS-ENTITY-COUNT-RETIRABLE', Boolean(mine), mine ? 'the retirable entity is listed' : `count_retirable (${ex.status}) does not list the retirable entity ${flagged.key}`, ex);
    ctx.assert('OPS-ENTITY-COUNT-RETIRABLE', !list.some((e) => e._key === plain.key), 'an entity not flagged retirable is not listed', ex);
    if (mine) {
      const missing = ['object_type', 'title', 'retirable', 'sec_grp', '_key', 'permissions'].filter((f) => mine[f] === undefined);
      ctx.assert('OPS-ENTITY-COUNT-RETIRABLE', missing.length === 0, missing.length ? `the summary lacks ${missing.join(', ')}` : 'the summary has every documented field', ex);
    }
  },
};

export const retireRetirable: Check = {
  id: 'ops.entity.retire-retirable',
  title: 'entity/retire_retirable MUST retire exactly the entities flagged retirable',
  requirements: ['OPS-ENTITY-RETIRE-RETIRABLE'],
  // Retires every retirable entity, other checks' too: it runs last, alone.
  destructive: true,
  async run(ctx) {
    const made = await serviceWithEntities(ctx, 2, { retirable: 1 });
    const kept = await createIn(ctx, ENTITY, 'Not Retirable', made ? { services: [{ _key: made.service, title: 'x' }] } : {});
    if (!made || !kept.key) return ctx.untested('OPS-ENTITY-RETIRE-RETIRABLE', 'could not create the entities');
    const flaggedBefore = new Set(((await ctx.http.send('entityCountRetirable')).json as Doc[] | undefined)?.map((e) => String(e._key)) ?? []);
    const ex = await ctx.http.send('entityRetireRetirable');
    const retired = Array.isArray(ex.json) ? (ex.json as unknown[]).map(String) : [];
    const ours = made.entities.every((k) => retired.includes(k));
    ctx.assert('OPS-ENTITY-RETIRE-RETIRABLE', ok(ex) && ours, `retire_retirable answered ${ex.status} with ${retired.length} keys${ours ? '' : ', missing the run\'s retirable entities'}`, ex);
    ctx.assert('OPS-ENTITY-RETIRE-RETIRABLE', !retired.includes(kept.key), retired.includes(kept.key) ? 'an entity not flagged retirable was retired' : 'entities not flagged retirable are left alone', ex);
    const extra = retired.filter((k) => !flaggedBefore.has(k));
    ctx.assert('OPS-ENTITY-RETIRE-RETIRABLE', extra.length === 0, extra.length ? `retired ${extra.join(', ')}, which count_retirable did not list` : 'every retired key was listed as retirable', ex);
    const linked = keys(rows(await listIn(ctx, ENTITY, { filter: JSON.stringify({ 'services._key': made.service }) })));
    ctx.assert('OPS-ENTITY-RETIRE-RETIRABLE', linked.length === 1 && linked[0] === kept.key, `after retire_retirable the service's entities are ${JSON.stringify(linked)}`);
  },
};
