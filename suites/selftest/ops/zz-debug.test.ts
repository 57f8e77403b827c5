import { it } from 'vitest';
import { loadOpsConfig } from '../../../reference-impl/ops/config';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { runAgainst } from '../harness';
import { opsFaults as base } from './faults';
import { probes } from './zz-probes';
const opsFaults = [...base, ...probes];

it('debug', async () => {
  const ids = (process.env.FAULTS ?? '').split(',');
  for (const fault of opsFaults.filter((f) => ids.includes(f.id))) {
    const config = loadOpsConfig();
    const report = await runAgainst(opsApi, await embeddedOpsTarget((h) => fault.wrap(h, config)), fault.only ? { only: fault.only } : {});
    console.log('==', fault.id, JSON.stringify(report.requirements.filter((q) => q.status === 'failed').map((q) => [q.id, q.status])));
    if (process.env.VERBOSE) console.log(JSON.stringify(report.requirements.filter((q) => q.status === 'failed'), null, 1).slice(0, 6000));
  }
}, 60000);
