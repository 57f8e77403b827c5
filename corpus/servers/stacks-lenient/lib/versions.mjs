// Version catalogue: default selection and lookup of requested versions.
import { bug, VERSIONS } from './config.mjs';

const parts = (v) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));

export function compareBuilds(a, b) {
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

const latestOf = (list) =>
  list.reduce((best, v) => (best === null || compareBuilds(v.buildVersion, best.buildVersion) > 0 ? v : best), null);

export function defaultVersion() {
  const released = VERSIONS.filter((v) => v.status === 'released');
  if (bug('default-not-latest')) return released[0].buildVersion;
  return latestOf(released).buildVersion;
}

export function listVersions() {
  const def = defaultVersion();
  return VERSIONS.map((v) => {
    const out = { ...v, default: v.buildVersion === def };
    if (bug('versions-missing-status')) delete out.status;
    return out;
  });
}

// Returns the build to provision, or null when the value names nothing known.
export function resolveVersion(requested) {
  let value = requested.trim();
  if (/^v\d/i.test(value)) value = value.slice(1);
  const exact = VERSIONS.find((v) => v.buildVersion === value);
  if (exact) return exact.buildVersion;
  const prefixed = VERSIONS.filter((v) => v.buildVersion.startsWith(`${value}.`));
  if (prefixed.length > 0) return latestOf(prefixed).buildVersion;
  const byName = VERSIONS.filter((v) => v.releaseName.toLowerCase() === value.toLowerCase());
  if (byName.length > 0) return latestOf(byName).buildVersion;
  return null;
}
