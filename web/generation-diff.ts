/**
 * The generation diff view (issue 28): `/generations/diff?from=A&to=B` lists the skills added,
 * removed and changed between two generations, from `/api/generations/diff`. Text nodes only (`h`);
 * each skill links to its page.
 */
import { api, h, link } from './dom.js';
import { short } from './results.js';

interface Ref {
  seq: number;
  catalog_generation: string;
  created_at: string;
}

interface Member {
  skill_id: string;
  revision_id: string;
  state: string;
}

interface GenerationDiff {
  from: Ref | 'working';
  to: Ref | 'working';
  added: Member[];
  removed: Member[];
  changed: (Member & {
    from_revision_id: string;
    from_state: string;
    revision_changed: boolean;
    files_changed: boolean;
    state_changed: boolean;
  })[];
  counts: { added: number; removed: number; changed: number; unchanged: number };
}

function label(g: Ref | 'working'): string {
  return g === 'working' ? 'working set' : `generation #${g.seq} (${short(g.catalog_generation)})`;
}

const skillLink = (id: string): HTMLAnchorElement => link(`/skills/${encodeURIComponent(id)}`, id);

/** The view: what changed from generation `from` to `to` (query parameters; API defaults otherwise). */
export async function generationDiffView(main: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const qs = new URLSearchParams();
  for (const k of ['from', 'to']) {
    const v = params.get(k);
    if (v !== null) qs.set(k, v);
  }
  const d = await api<GenerationDiff>(`/api/generations/diff?${qs.toString()}`);
  const c = d.counts;
  const list = (title: string, cls: string, rows: HTMLElement[]): HTMLElement =>
    h(
      'section',
      { class: 'card' },
      h('h2', {}, title),
      rows.length === 0 ? h('p', { class: 'empty' }, 'None.') : h('ul', { class: cls }, rows),
    );
  main.append(
    h('h1', {}, `${label(d.from)} → ${label(d.to)}`),
    h(
      'p',
      { class: 'meta' },
      `${c.added} added, ${c.removed} removed, ${c.changed} changed, ${c.unchanged} unchanged`,
    ),
    list(
      'Added',
      'add',
      d.added.map((m) => h('li', {}, skillLink(m.skill_id), ` ${short(m.revision_id)}`)),
    ),
    list(
      'Removed',
      'del',
      d.removed.map((m) => h('li', {}, m.skill_id, ` ${short(m.revision_id)}`)),
    ),
    list(
      'Changed',
      'chg',
      d.changed.map((m) =>
        h(
          'li',
          {},
          skillLink(m.skill_id),
          m.revision_changed
            ? ` revision ${short(m.from_revision_id)} → ${short(m.revision_id)}`
            : '',
          m.files_changed ? ' · supporting files' : '',
          m.state_changed ? ` · ${m.from_state} → ${m.state}` : '',
        ),
      ),
    ),
  );
}
