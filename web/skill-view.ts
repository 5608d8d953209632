/**
 * The explorer's skill page (issue 15; issue 27): identity, frontmatter, revisions, lifecycle,
 * usage chart and the SKILL.md body; for an id the catalog does not serve, the closest ids it does
 * serve (the library's one "did you mean", as `skilldex show` prints it) and a search for the id.
 * Text nodes only; the body goes through the token renderer of markdown.ts.
 */
import { ApiError, api, h, link } from './dom.js';
import { examplesSection } from './examples.js';
import { short } from './results.js';

interface SkillPage {
  skill: {
    skill_id: string;
    skill_version: string;
    revision_id: string;
    name: string;
    description: string;
    state: string;
    size: number;
    frontmatter: Record<string, unknown>;
    catalog_generation: string;
  };
  record: {
    path: string;
    scope: string;
    scope_path: string;
    plugin: string | null;
    state: string;
    reason: string | null;
    replacement: string | null;
    revisions: {
      revision_id: string;
      version: string | null;
      size: number;
      path: string;
      first_seen: string;
      last_served: string | null;
    }[];
    lifecycle: {
      seq: number;
      catalog_generation: string;
      created_at: string;
      state: string;
      revision_id: string | null;
    }[];
  };
  text: string | null;
  text_error: { code: string; message: string } | null;
  usage: { day: string; suggestions: number; fetches: number }[];
}

/** The skill page: identity, frontmatter, revisions, lifecycle, usage, and the body. */
export async function skillView(main: HTMLElement, skillId: string): Promise<void> {
  // markdown-it and uPlot load only here, so the search and overview views start with a small script.
  let p: SkillPage;
  const modules = Promise.all([import('./markdown.js'), import('./chart.js')]);
  try {
    p = await api<SkillPage>(`/api/skills/${encodeURIComponent(skillId)}`);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'SKILL_NOT_FOUND') throw err;
    main.append(notFound(skillId, err));
    return;
  }
  const [{ renderMarkdown }, { usageChart }] = await modules;
  const s = p.skill;
  document.title = `${s.name} · skilldex`;
  const body = h('article', { class: 'markdown', attrs: { id: 'skill-body' } });
  if (p.text !== null) renderMarkdown(p.text, body);
  else
    body.append(
      h(
        'div',
        { class: 'error' },
        `${p.text_error?.code ?? 'ERROR'}: ${p.text_error?.message ?? ''}`,
      ),
    );
  main.append(
    h('h1', {}, s.name, ' ', h('span', { class: `state ${s.state}` }, s.state)),
    h('p', { class: 'desc', attrs: { id: 'skill-description' } }, s.description),
    h(
      'div',
      { class: 'grid' },
      identityCard(p),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Frontmatter'),
        table(
          Object.entries(s.frontmatter).map(([k, v]) => [
            k,
            typeof v === 'string' ? v : JSON.stringify(v),
          ]),
        ),
      ),
      historyCard(p.record),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Suggestions and fetches'),
        p.usage.length === 0
          ? h('p', { class: 'empty' }, 'No telemetry for this skill.')
          : usageChart(p.usage),
      ),
      examplesSection(s.skill_id),
    ),
    h('h2', {}, 'SKILL.md'),
    body,
  );
}

// An id the catalog does not serve: what it is, the closest served ids, and a search for it.
function notFound(skillId: string, err: ApiError): HTMLElement {
  document.title = `${skillId} · not found · skilldex`;
  const near = Array.isArray(err.details['did_you_mean'])
    ? (err.details['did_you_mean'] as unknown[]).filter((x): x is string => typeof x === 'string')
    : [];
  return h(
    'section',
    { attrs: { id: 'not-found' } },
    h('h1', {}, 'No skill ', h('code', {}, skillId)),
    h('p', { class: 'error', attrs: { role: 'alert' } }, `${err.code}: ${err.message}`),
    near.length > 0
      ? h(
          'p',
          { attrs: { id: 'did-you-mean' } },
          'Did you mean ',
          ...near.flatMap((id, i) => [
            i === 0 ? '' : i === near.length - 1 ? ' or ' : ', ',
            link(`/skills/${encodeURIComponent(id)}`, id),
          ]),
          '?',
        )
      : null,
    h('p', {}, link(`/?q=${encodeURIComponent(skillId)}`, `Search for “${skillId}”`), ' instead.'),
  );
}

function identityCard(p: SkillPage): HTMLElement {
  const s = p.skill;
  const r = p.record;
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Identity'),
    table([
      ['id', h('code', {}, s.skill_id)],
      ['version', s.skill_version],
      ['revision', h('code', { title: s.revision_id }, short(s.revision_id))],
      ['size', `${s.size} bytes`],
      ['path', h('code', {}, r.path)],
      ['scope', `${r.scope} (${r.scope_path})`],
      ['plugin', r.plugin ?? '—'],
      ['generation', h('code', { title: s.catalog_generation }, short(s.catalog_generation))],
      ...(r.reason !== null ? [['reason', r.reason] as [string, string]] : []),
      ...(r.replacement !== null
        ? [
            [
              'replacement',
              link(`/skills/${encodeURIComponent(r.replacement)}`, r.replacement),
            ] as [string, Node],
          ]
        : []),
    ]),
  );
}

// Revisions (each cell one unbroken token: hashes, sizes, dates never wrap) and lifecycle.
function historyCard(r: SkillPage['record']): HTMLElement {
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Revisions seen'),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'tokens', attrs: { id: 'revisions' } },
        h(
          'tr',
          {},
          ['revision', 'version', 'size', 'first seen', 'last served'].map((t) => h('th', {}, t)),
        ),
        r.revisions.map((v) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', { title: v.revision_id }, short(v.revision_id))),
            h('td', {}, v.version ?? '—'),
            h('td', { class: 'num' }, String(v.size)),
            h('td', {}, day(v.first_seen)),
            h('td', {}, v.last_served ? day(v.last_served) : '—'),
          ),
        ),
      ),
    ),
    h('h2', {}, 'Lifecycle'),
    h(
      'ol',
      { class: 'timeline' },
      r.lifecycle.map((l) =>
        h(
          'li',
          {},
          h('span', { class: `state ${l.state}` }, l.state),
          ` in generation ${l.seq} (${day(l.created_at)})`,
        ),
      ),
    ),
  );
}

function table(rows: [string, Node | string][]): HTMLTableElement {
  return h(
    'table',
    { class: 'kv' },
    rows.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v))),
  );
}

function day(iso: string): string {
  return iso.slice(0, 10);
}
