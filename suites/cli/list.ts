import { APIS, apiById } from '../apis';
import { UsageError } from '../core/usage-error';
import { loadCatalogue } from '../core/catalogue';
import { closest } from '../core/settings';
import { parseCommand } from './args';
import { TOOL } from '../core/tool';

export const LIST_HELP = `usage: ${TOOL.name} list [--api LIST] [--checks | --requirements] [--json]

Lists every requirement (id, level, group, whether destructive, covering checks) and every check
(id, requirements, destructive, credentials it needs).`;

export function list(argv: string[]): number {
  const { values: v } = parseCommand(
    'list',
    {
      help: { type: 'boolean', short: 'h' },
      api: { type: 'string' },
      json: { type: 'boolean' },
      checks: { type: 'boolean' },
      requirements: { type: 'boolean' },
    },
    argv,
  );
  const values = v as { help?: boolean; api?: string; json?: boolean; checks?: boolean; requirements?: boolean };
  if (values.help) {
    console.log(LIST_HELP);
    return 0;
  }
  const ids = values.api?.split(',') ?? APIS.map((a) => a.id);
  const chosen = APIS.filter((a) => ids.includes(a.id));
  const unknown = ids.find((id) => !apiById(id));
  if (unknown !== undefined) {
    const near = closest(
      unknown,
      APIS.map((a) => a.id),
    );
    throw new UsageError(
      `unknown API '${unknown}' in --api (${near.length ? `did you mean ${near[0]}? ` : ''}known: ${APIS.map((a) => a.id).join(', ')})`,
    );
  }
  const data = chosen.map((a) => {
    const checks = a.checks.map((c) => ({
      id: c.id,
      title: c.title,
      requirements: c.requirements,
      destructive: !!c.destructive,
      needs: c.needs ?? [],
    }));
    const requirements = loadCatalogue(a.catalogueFile).requirements.map((r) => ({
      id: r.id,
      level: r.level,
      group: r.group,
      summary: r.summary,
      destructive:
        checks.some((c) => c.destructive && c.requirements.includes(r.id)) &&
        !checks.some((c) => !c.destructive && c.requirements.includes(r.id)),
      checks: checks.filter((c) => c.requirements.includes(r.id)).map((c) => c.id),
    }));
    return { api: a.id, requirements, checks };
  });
  if (values.json) {
    console.log(JSON.stringify(data, null, 2));
    return 0;
  }
  const showReqs = !values.checks || values.requirements;
  const showChecks = !values.requirements || values.checks;
  for (const a of data) {
    if (showReqs) {
      console.log(`${a.api}: ${a.requirements.length} requirements`);
      for (const r of a.requirements)
        console.log(
          `  ${r.id.padEnd(32)} ${r.level.padEnd(11)} ${r.group.padEnd(14)} ${r.destructive ? 'destructive ' : ''}${r.checks.join(', ')}`,
        );
    }
    if (showChecks) {
      console.log(`${a.api}: ${a.checks.length} checks`);
      for (const c of a.checks)
        console.log(
          `  ${c.id}${c.destructive ? ' [destructive]' : ''}${c.needs.length ? ` [needs ${c.needs.join(', ')}]` : ''}\n      ${c.title}\n      covers ${c.requirements.join(', ')}`,
        );
    }
  }
  return 0;
}
