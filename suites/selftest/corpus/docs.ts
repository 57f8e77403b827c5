import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORPUS_DIR, type CorpusServer, loadCorpus, type ManifestBug } from './manifest';

/**
 * `npm run corpus:docs`: corpus/README.md's table of servers and each server's BUGS.md table, generated from the
 * manifests. What comes before the marker line is written by hand and kept; what follows it is generated (a test
 * fails when it drifts from the manifests). `npm run corpus:docs -- <server>...` rewrites only those servers' BUGS.md.
 */
const MARKER = '<!-- Generated from manifest.json by `npm run corpus:docs`: edit the manifest, not what follows. -->';

const README_HEAD = `# api-conformance-corpus

Servers of the two APIs the product checks, written from the two API documents alone, without the product's code,
one folder each under \`servers/\`. A correct server must pass the product's gate, and each documented bug must fail
the requirements it breaks and no MUST beyond a stated list: the product's own tests (\`npm test\`, vitest project
\`corpus\`) start every server as a process and run the suite against it, as a user runs it against a deployment.

Each folder holds the program, NOTES.md (its choices where the documents are silent), BUGS.md (its documented bugs)
and manifest.json, which the tests and this page are made from:

- \`api\` (\`stacks\` or \`ops\`), \`summary\` (what makes the server different), \`entry\` (the program: \`.mjs\` runs on
  node, \`.ts\` with tsx), \`scheme\`, \`credentials\` (the README's variables, the base URL aside);
- \`expected\`: \`mustFailures\` (MUST requirements every run fails, e.g. \`OPS-AUTH-HTTPS\` over plain HTTP) and
  \`warnings\` (SHOULD requirements the correct server departs from);
- \`variants\` (\`VARIANT=<name>\`, each correct) and \`bugs\` (\`BUG=<name>\`), each bug with the \`clause\` it breaks, what
  it \`does\`, the MUST requirements it \`breaks\` and its \`collateral\` (or \`warns\` for a SHOULD, \`untested\` for what
  no run can prove, \`reading\` for a reading the document allows after all);
- \`lagS\`: the seconds a write may take to show, by variant (\`"*"\` for all runs); those runs settle that long, the
  others not at all.

A server reads \`PORT\` (and \`BUG\`, \`VARIANT\`) from the environment and prints \`listening on <port>\` when it is ready;
one served under a path prints \`export <API>_BASE_URL=<url>\` before that line. Nothing here imports the product and the
product imports nothing from here (a lint rule).

Adding a server: write it in \`servers/<name>/\` with NOTES.md and a manifest.json; \`npm run corpus:docs\`; run it with
\`npx vitest run --project corpus -t <name>\`. A bug with no requirement mapped fails the test.
`;

const BUGS_HEAD = `# Documented bugs

Each bug is off by default; switch bugs on with \`BUG=<name>[,<name>...]\`.
`;

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (ids: string[]) => ids.map((id) => `\`${id}\``).join(', ');
/** A clause is quoted; one that holds its own quotation marks (several sentences, or where it is found) is as written. */
const quoted = (clause: string) => (clause.includes('"') ? clause : `"${clause}"`);

function requirements(b: ManifestBug): string {
  const parts: string[] = [];
  if (b.breaks?.length) parts.push(code(b.breaks));
  if (b.collateral?.length) parts.push(`(also fails ${code(b.collateral)})`);
  if (b.warns?.length) parts.push(`${code(b.warns)} (SHOULD: a warning)`);
  if (b.untested?.length) parts.push(`${code(b.untested)} untested: no run can prove it`);
  if (b.reading) parts.push(`none: a reading the document allows (${b.reading})`);
  return parts.join(' ') || '**none mapped**';
}

function withHead(file: string, defaultHead: string, body: string): string {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  let head = defaultHead;
  if (current.includes(MARKER)) head = current.slice(0, current.indexOf(MARKER));
  else if (current) {
    // A hand-written file: keep what comes before its table.
    const lines = current.split('\n');
    const table = lines.findIndex((l) => l.startsWith('|'));
    head = table < 0 ? current : lines.slice(0, table).join('\n');
  }
  return `${head.trimEnd()}\n\n${MARKER}\n\n${body}`;
}

function bugsBody(s: CorpusServer): string {
  const rows = Object.entries(s.manifest.bugs).map(
    ([name, b]) => `| \`${name}\` | ${cell(quoted(b.clause))} | ${cell(b.does)} | ${cell(requirements(b))} |`,
  );
  return [
    '| name | sentence of the document it breaks | what the server does with the bug on | requirements it fails |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

function readmeBody(servers: CorpusServer[]): string {
  const count = (api: string) => servers.filter((s) => s.manifest.api === api).reduce((n, s) => n + Object.keys(s.manifest.bugs).length, 0);
  const expected = (s: CorpusServer) => {
    const { mustFailures, warnings } = s.manifest.expected;
    const parts = [
      mustFailures.length ? `fails ${code(mustFailures)}` : 'passes',
      ...(warnings.length ? [`warns on ${code(warnings)}`] : []),
    ];
    return parts.join('; ');
  };
  const rows = servers.map((s) => {
    const m = s.manifest;
    const variants = Object.keys(m.variants ?? {});
    return `| [\`${s.name}\`](servers/${s.name}/) | ${m.api} | ${m.scheme} | ${cell(m.summary)} | ${expected(s)} | ${variants.length ? code(variants) : ''} | [${Object.keys(m.bugs).length}](servers/${s.name}/BUGS.md) |`;
  });
  const out = [
    `${servers.length} servers: ${servers.filter((s) => s.manifest.api === 'stacks').length} of the stack API (${count('stacks')} documented bugs), ${servers.filter((s) => s.manifest.api === 'ops').length} of the ops API (${count('ops')}).`,
    '',
    '| server | API | scheme | what makes it different | the correct server | variants | bugs |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ];
  for (const s of servers.filter((x) => Object.keys(x.manifest.variants ?? {}).length)) {
    out.push(`## Variants of \`${s.name}\``, '', '| variant | what it changes |', '|---|---|');
    for (const [name, changes] of Object.entries(s.manifest.variants!)) out.push(`| \`${name}\` | ${cell(changes)} |`);
    out.push('');
  }
  return out.join('\n');
}

/** Every generated file, by path, as the manifests make it. */
export function corpusDocs(servers: CorpusServer[] = loadCorpus().servers): Map<string, string> {
  const files = new Map<string, string>();
  const readme = join(CORPUS_DIR, 'README.md');
  files.set(readme, withHead(readme, README_HEAD, readmeBody(servers)));
  for (const s of servers) {
    const bugs = join(s.dir, 'BUGS.md');
    files.set(bugs, withHead(bugs, BUGS_HEAD, bugsBody(s)));
  }
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const only = process.argv.slice(2);
  const { servers, problems } = loadCorpus();
  for (const problem of problems.values()) console.error(`skipped: ${problem}`);
  for (const name of only)
    if (!servers.some((s) => s.name === name)) throw new Error(`no server ${name} with a manifest.json in corpus/servers/`);
  for (const [file, text] of corpusDocs(servers)) {
    const server = relative(join(CORPUS_DIR, 'servers'), file).split('/')[0];
    if (only.length && file.endsWith('BUGS.md') && !only.includes(server)) continue;
    if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
    writeFileSync(file, text);
    console.log(`wrote ${relative(process.cwd(), file)}`);
  }
}
