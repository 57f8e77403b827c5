import { loadOpsConfig } from '../../../reference-impl/ops/config';
import { opsApi } from '../../ops/index';
import { embeddedOpsTarget } from '../../ops/target';
import { runAgainst } from '../harness';
import { opsFaults } from './faults';
const pat = process.argv[2] ?? '';
for (const fault of opsFaults.filter((f) => f.id.includes(pat))) {
  const config = loadOpsConfig();
  const report = await runAgainst(opsApi, await embeddedOpsTarget((h) => fault.wrap(h, config)), fault.only ? { only: fault.only } : {});
  const failed = report.requirements.filter((q) => q.status === 'failed');
  console.log(`== ${fault.id} breaks ${fault.breaks.join(',')}`);
  for (const q of failed) console.log(`  ${q.id}: ${q.evidence.map((e) => e.message).slice(0, 2).join(' | ').slice(0, 300)}`);
}
process.exit(0);
