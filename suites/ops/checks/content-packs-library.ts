import fc from 'fast-check';
import { checkProperty, Violation } from '../../core/property';
import { ok, type Doc, type OpsCheck } from '../support';
import { compact } from '../../core/expect';
import { isDoc } from '../../core/json';
import { need } from '../../core/precondition';
import {
  docs,
  str,
  shown,
  member,
  listPacks,
  libraryOf,
  packsOf,
  idsOf,
  failuresOf,
  packParams,
  previewOf,
  packFieldProblems,
  packShapeProblems,
  notArrayVersions,
  savedSearchesOf,
  sortedIn,
} from './content-packs-support';

export const libraryList: OpsCheck = {
  id: 'ops.content-packs.list',
  title:
    'GET content_pack MUST answer {success, failure}; packs SHOULD carry the documented fields; packs that failed to load MUST be in failure, not in success',
  requirements: [
    'OPS-CP-LIST-SHAPE',
    'OPS-CP-FIELDS',
    'OPS-CP-INSTALLED-VERSIONS',
    'OPS-CP-INSTALLED-VERSIONS-ARRAY',
    'OPS-CP-FIELD-SHAPES',
    'OPS-ERR-CP-LIST-FAILURES',
  ],
  uses: ['content-packs'],
  async run(ctx) {
    const ex = await listPacks(ctx);
    const packs = packsOf(ex);
    const { success, failure } = libraryOf(ex);
    const shaped = ok(ex) && Array.isArray(success) && Array.isArray(failure);
    if (
      !ctx.expect.that(
        'OPS-CP-LIST-SHAPE',
        'the library list',
        shaped,
        {
          expected: 'a success with success and failure arrays',
          actual: shaped ? `${packs.length} packs in success, ${(failure as unknown[]).length} entries in failure` : shown(ex),
        },
        ex,
      )
    )
      return;
    if (member(ex, 'items') !== undefined)
      ctx.observe('OPS-CP-LIST-SHAPE', 'the list wraps {success, failure} in {items: ...}, as some releases do');
    ctx.expect.equal(
      'OPS-CP-LIST-SHAPE',
      'entries of success that are not content pack objects',
      (success as unknown[]).filter((e) => !isDoc(e)),
      [],
      ex,
    );
    if (!packs.length) ctx.untested('OPS-CP-FIELDS', 'the library lists no content pack', ex);
    else {
      const bad = packs.flatMap(packFieldProblems);
      ctx.expect.equal(
        'OPS-CP-FIELD-SHAPES',
        `shapes of help_links and the screenshots of ${packs.length} listed packs`,
        packs.flatMap(packShapeProblems),
        [],
        ex,
      );
      ctx.expect.equal('OPS-CP-FIELDS', `problems of the documented fields of ${packs.length} listed packs`, bad, [], ex);
      ctx.expect.equal(
        'OPS-CP-INSTALLED-VERSIONS-ARRAY',
        `of ${packs.length} listed packs, those whose installed_versions is not an array`,
        notArrayVersions(packs),
        [],
        ex,
      );
      // The schema gives installed_versions as an array of anything; the document's are version strings.
      const versions = packs.filter((p) => !(Array.isArray(p.installed_versions) && p.installed_versions.every(str)));
      ctx.expect.equal('OPS-CP-INSTALLED-VERSIONS', 'packs whose installed_versions is not an array of strings', idsOf(versions), [], ex);
    }
    const failed = docs(failure);
    // The shape of an error entry is not shown: one that names a listed pack's id and version says that very pack failed;
    // one without a version may be about another version of it (a library may list each version as its own entry).
    const doubled = failed.filter((f) => f.version !== undefined && packs.some((p) => p.id === f.id && p.version === f.version));
    const unversioned = failed.filter((f) => f.version === undefined && packs.some((p) => p.id === f.id));
    if (unversioned.length)
      ctx.observe(
        'OPS-ERR-CP-LIST-FAILURES',
        `failure entries without a version name listed packs: ${unversioned.map((f) => String(f.id)).join(', ')}`,
      );
    ctx.expect.equal(
      'OPS-ERR-CP-LIST-FAILURES',
      `of ${failed.length} packs that failed to load, those also listed in success`,
      doubled.map((f) => String(f.id)),
      [],
      ex,
    );
    if (failed.length) ctx.observe('OPS-ERR-CP-LIST-FAILURES', `failure entries look like ${compact(failed[0])}`);
  },
};

export const libraryPaging: OpsCheck = {
  id: 'ops.content-packs.list-paging',
  title:
    'GET content_pack MUST return at most count packs after skipping offset, sorted by sort_key in sort_dir order (asc or desc), and report the same load failures whatever the paging',
  requirements: ['OPS-CP-LIST', 'OPS-ERR-CP-LIST-FAILURES'],
  uses: ['content-packs'],
  async run(ctx) {
    const whole = await listPacks(ctx);
    const all = packsOf(whole);
    const n = all.length;
    need(ok(whole) && n >= 2, `the library lists ${n} packs (${whole.status}); paging and sorting need at least two`, whole);
    const allIds = JSON.stringify([...idsOf(all)].sort());
    const failureCount = failuresOf(whole)?.length;
    // Only keys whose values differ on every pack, whatever the case: then each order has one right answer.
    const sortable = ['id', 'title', 'version', 'author'].filter(
      (k) => all.every((p) => str(p[k])) && new Set(all.map((p) => String(p[k]).toLowerCase())).size === n,
    );
    const property = fc.asyncProperty(
      fc.constantFrom<string | null>(...sortable, null),
      fc.constantFrom('asc', 'desc'),
      fc.integer({ min: 1, max: n }),
      fc.nat(),
      async (key, dir, size, shift) => {
        const sort = key === null ? {} : { sort_key: key, sort_dir: dir };
        const full = await listPacks(ctx, sort);
        const order = idsOf(packsOf(full));
        if (!ok(full) || JSON.stringify([...order].sort()) !== allIds)
          throw new Violation(
            `with ${JSON.stringify(sort)} the list answered ${full.status} with packs ${order.join(', ')}, not the ${n} packs of the library`,
            'OPS-CP-LIST',
            full,
            {
              expected: `a success with the library's ${n} packs`,
              actual: `${full.status} with ${order.join(', ')}`,
            },
          );
        if (key !== null) {
          const values = packsOf(full).map((p) => String(p[key]));
          if (!sortedIn(values, dir === 'asc' ? 1 : -1))
            throw new Violation(
              `sort_key=${key} sort_dir=${dir} listed ${key} values ${JSON.stringify(values)}, which is not ${dir === 'asc' ? 'ascending' : 'descending'}`,
              'OPS-CP-LIST',
              full,
              {
                expected: `${key} values ${dir === 'asc' ? 'ascending' : 'descending'}`,
                actual: compact(values),
              },
            );
          const other = await listPacks(ctx, { sort_key: key, sort_dir: dir === 'asc' ? 'desc' : 'asc' });
          const back = idsOf(packsOf(other)).reverse();
          if (JSON.stringify(back) !== JSON.stringify(order))
            throw new Violation(
              `sort_dir=asc and sort_dir=desc by ${key} are not each other's reverse: ${order.join(',')} against ${back.reverse().join(',')}`,
              'OPS-CP-LIST',
              other,
            );
        }
        // Pages of `size` from a random first offset, past the end: together they must be the list from there on.
        // Without sort_key the document gives no order, so a page is judged only by its size and its packs.
        for (let offset = shift % size; offset < n + size; offset += size) {
          const page = await listPacks(ctx, { ...sort, count: size, offset });
          const want = order.slice(offset, offset + size);
          const got = idsOf(packsOf(page));
          const right =
            key === null
              ? got.length === want.length && new Set(got).size === got.length && got.every((id) => order.includes(id))
              : JSON.stringify(got) === JSON.stringify(want);
          if (!ok(page) || !right)
            throw new Violation(
              `count=${size} offset=${offset} with ${JSON.stringify(sort)} answered ${page.status} with ${got.join(',') || '(none)'}, expected ${key === null ? `${want.length} distinct packs of the library` : want.join(',') || '(none)'}`,
              'OPS-CP-LIST',
              page,
              {
                expected: key === null ? `${want.length} distinct packs of the library` : want.join(',') || '(none)',
                actual: `${page.status} ${got.join(',') || '(none)'}`,
              },
            );
          // Every answer of the list reports the packs that failed to load, paged or not: as many entries as the whole list.
          // What an entry holds is not shown (a server may stamp each with the time it was read), so only the number is judged.
          if (failuresOf(page)?.length !== failureCount)
            throw new Violation(
              `count=${size} offset=${offset} reported failure ${JSON.stringify(libraryOf(page).failure).slice(0, 160)}, the whole list ${failureCount} entries`,
              'OPS-ERR-CP-LIST-FAILURES',
              page,
              { expected: `${failureCount} entries`, actual: JSON.stringify(failuresOf(page)) },
            );
        }
      },
    );
    await checkProperty(ctx, ['OPS-CP-LIST', 'OPS-ERR-CP-LIST-FAILURES'], 'content-pack list paging and sorting', property, {
      runs: Math.ceil(ctx.options.runs / 2),
      concurrent: true,
    });
  },
};

export const libraryGet: OpsCheck = {
  id: 'ops.content-packs.get',
  title:
    'GET content_pack/<name>/<version> MUST answer the pack of that name and version, and MUST NOT answer one for a name or version the library does not hold',
  requirements: ['OPS-CP-GET', 'OPS-CP-FIELDS', 'OPS-CP-FIELD-SHAPES', 'OPS-CP-INSTALLED-VERSIONS-ARRAY'],
  uses: ['content-packs'],
  async run(ctx) {
    const packs = packsOf(await listPacks(ctx)).filter((p) => str(p.id) && str(p.version));
    need(packs.length, 'the library lists no content pack with an id and a version');
    for (const p of packs.slice(0, 5)) {
      const ex = await ctx.http.send('contentPackGet', { params: packParams(p) });
      const d = isDoc(ex.json) ? ex.json : {};
      const good = ok(ex) && d.id === p.id && d.version === p.version && d.title === p.title;
      const named = (o: Doc) => compact({ id: o.id, version: o.version, title: o.title });
      ctx.expect.that(
        'OPS-CP-GET',
        `GET ${p.id}/${p.version}`,
        good,
        { expected: `a success with the listed ${named(p)}`, actual: `${ex.status} with ${named(d)}` },
        ex,
      );
      if (!ok(ex)) continue;
      ctx.expect.equal('OPS-CP-FIELDS', `problems of the documented fields of ${p.id} read alone`, packFieldProblems(d), [], ex);
      ctx.expect.equal(
        'OPS-CP-FIELD-SHAPES',
        `shapes of help_links and the screenshots of ${p.id} read alone`,
        packShapeProblems(d),
        [],
        ex,
      );
      ctx.expect.equal(
        'OPS-CP-INSTALLED-VERSIONS-ARRAY',
        `whether installed_versions of ${p.id}/${p.version} read alone is an array`,
        notArrayVersions([d]),
        [],
        ex,
      );
    }
    const p = packs[0];
    for (const params of [
      { name: String(p.id), version: `${p.version}.${ctx.options.runTag}` },
      { name: `${p.id}-${ctx.options.runTag}`, version: String(p.version) },
    ]) {
      const ex = await ctx.http.send('contentPackGet', { params });
      // Status codes are not shown (content-pack errors answer 500 in the field): any refusal will do.
      ctx.expect.status('OPS-CP-GET', `GET ${params.name}/${params.version}, which the library does not hold`, ex, 'not 2xx');
    }
  },
};

export const libraryPreview: OpsCheck = {
  id: 'ops.content-packs.preview',
  title:
    'The preview MUST be an object of arrays keyed by object-type group; entries SHOULD carry id, title, description and installed, plus entitlement_status and has_dependency in the current form',
  requirements: [
    'OPS-CP-PREVIEW-SHAPE',
    'OPS-CP-PREVIEW-ENTRY',
    'OPS-CP-PREVIEW-ENTRY-FIELDS',
    'OPS-CP-PREVIEW-SAVED-SEARCHES-FLAGS',
    'OPS-CP-PREVIEW-OLDER-FORM',
  ],
  uses: ['content-packs'],
  async run(ctx) {
    const packs = packsOf(await listPacks(ctx)).filter((p) => str(p.id) && str(p.version));
    need(packs.length, 'the library lists no content pack to preview');
    let older = 0;
    let current = 0;
    let saved = 0;
    for (const p of packs.slice(0, 5)) {
      const ex = await previewOf(ctx, p);
      const body = isDoc(ex.json) ? ex.json : undefined;
      const groups = Object.entries(body ?? {}).filter(([g]) => g !== 'saved_searches');
      const notArrays = groups.filter(([, v]) => !Array.isArray(v)).map(([g]) => g);
      ctx.expect.that(
        'OPS-CP-PREVIEW-SHAPE',
        `preview of ${p.id}`,
        ok(ex) && !!body && notArrays.length === 0,
        {
          expected: 'a success with an object of arrays keyed by group',
          actual: body
            ? `${ex.status} with groups ${groups.map(([g]) => g).join(', ') || '(none)'}${notArrays.length ? `; ${notArrays.join(', ')} not arrays` : ''}`
            : shown(ex),
        },
        ex,
      );
      const loose = groups.flatMap(([g, v]) => (Array.isArray(v) ? v : []).filter((e) => !isDoc(e)).map((e) => ({ [g]: e })));
      ctx.expect.equal('OPS-CP-PREVIEW-SHAPE', `entries of the preview of ${p.id} that are not objects`, loose, [], ex);
      const entries = groups.flatMap(([g, v]) => (Array.isArray(v) ? v : []).map((e) => [g, isDoc(e) ? e : {}] as const));
      // Every entry carries at least the older form; the current form adds two booleans, both or neither.
      const notOld = entries.filter(([, d]) => !(str(d.id) && str(d.title) && str(d.description) && typeof d.installed === 'boolean'));
      const newer = entries.filter(([, d]) => d.entitlement_status !== undefined || d.has_dependency !== undefined);
      const notNew = newer.filter(([, d]) => typeof d.entitlement_status !== 'boolean' || typeof d.has_dependency !== 'boolean');
      older += entries.length - newer.length;
      current += newer.length;
      const say = (bad: (readonly [string, Doc])[]) => bad.map(([g, d]) => ({ [g]: d }));
      const flagged = (v: unknown) => v === undefined || typeof v === 'boolean';
      const mistyped = entries.filter(
        ([, d]) => notOld.some(([, o]) => o === d) || !flagged(d.entitlement_status) || !flagged(d.has_dependency),
      );
      if (entries.length)
        ctx.expect.equal(
          'OPS-CP-PREVIEW-ENTRY-FIELDS',
          `preview entries of ${p.id} without string id, title, description and boolean installed, or with flags that are not booleans (of ${entries.length})`,
          say(mistyped),
          [],
          ex,
        );
      if (entries.length)
        ctx.expect.equal(
          'OPS-CP-PREVIEW-OLDER-FORM',
          `preview entries of ${p.id} without string id, title, description and boolean installed (of ${entries.length})`,
          say(notOld),
          [],
          ex,
        );
      if (newer.length)
        ctx.expect.equal(
          'OPS-CP-PREVIEW-ENTRY',
          `current-form preview entries of ${p.id} without the older form's fields or boolean entitlement_status and has_dependency (of ${newer.length})`,
          say([...notNew, ...notOld]),
          [],
          ex,
        );
      if (body?.saved_searches !== undefined) {
        saved++;
        const s = body.saved_searches;
        const good = savedSearchesOf(body) !== undefined;
        ctx.expect.that(
          'OPS-CP-PREVIEW-SAVED-SEARCHES-FLAGS',
          `saved_searches of the preview of ${p.id}`,
          good,
          {
            expected: 'boolean has_saved_searches and has_consistent_status (in the member, or in each of its entries)',
            actual: compact(s),
          },
          ex,
        );
      }
    }
    if (!current) ctx.untested('OPS-CP-PREVIEW-ENTRY', 'no preview entry was in the current form');
    if (!saved) ctx.untested('OPS-CP-PREVIEW-SAVED-SEARCHES-FLAGS', 'no preview carried a saved_searches member');
    ctx.observe('OPS-CP-PREVIEW-OLDER-FORM', `${older} preview entries were in the older form, ${current} in the current one`);
  },
};
