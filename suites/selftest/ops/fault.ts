import type { OpsConfig } from '../../../reference-impl/ops/config';
import type { OpsRequirementId } from '../../ops/requirements.gen';
import type { Fault } from '../fault';

/** An ops fault may narrow the run to the checks that matter (`only`, as --only globs) to keep self-tests fast. */
export type OpsFault = Fault<OpsConfig, OpsRequirementId> & { only?: string[] };

/** Matches ops paths with or without the `vLatest` segment: `/itoa_interface/service/<key>` → ['service', '<key>']. */
export function opsPath(path: string, iface: string): string[] | undefined {
  const m = path.match(new RegExp(`^/servicesNS/[^/]+/[^/]+/${iface}(?:/vLatest)?(?:/(.*))?$`));
  return m ? (m[1] ?? '').split('/').filter(Boolean).map(decodeURIComponent) : undefined;
}
