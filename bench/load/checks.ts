/**
 * The load test's questions to single servers (issue #16), asked directly, past the balancer:
 * whether every live server answers again after a database restart, and, after the load, whether
 * each surviving server serves what every publish changed from the last published generation
 * (search for a publish's marker word, fetch with that answer's pins, and `GET /healthz`). It
 * asks; the caller judges.
 */
import { callTool, type ToolAnswer } from './balancer.js';
import type { McpServerProcess } from './cluster.js';
import type { LibraryEdit, MarkedSkill } from './library.js';

/** The pins of a search candidate, as skill_fetch takes them. */
export interface Pin {
  readonly skill_id: string;
  readonly revision_id: string;
  readonly catalog_generation: string;
}

/** The pins of the first candidate of a search answer, if it has one. */
export function firstPin(answer: ToolAnswer): Pin | undefined {
  if (!answer.ok) return undefined;
  const c = (answer.result['candidates'] as Pin[] | undefined)?.[0];
  return (
    c && {
      skill_id: c.skill_id,
      revision_id: c.revision_id,
      catalog_generation: c.catalog_generation,
    }
  );
}

/** One question asked of a surviving server after the load: does it serve every publish? */
export interface FinalCheck {
  readonly server: number;
  readonly marker: string;
  readonly expected: string;
  readonly top: string | undefined;
  readonly generation: string | undefined;
  /** The fetch pinned to that answer: 'ok' or the error code. */
  readonly fetch: string;
  readonly ok: boolean;
}

/**
 * Polls every server, all at once, until each has answered a search since `since()`; the ms from
 * `since()` until the last of them answered (queueing behind the load included), or null when a
 * server still failed once `graceMs` had passed. A slow answer is not a failure: under load a probe
 * waits its turn like any call.
 */
export async function waitRecovered(
  servers: readonly McpServerProcess[],
  timeoutMs: number,
  graceMs: number,
  since: () => number,
): Promise<number | null> {
  const one = async (s: McpServerProcess): Promise<boolean> => {
    for (;;) {
      const a = await callTool(s.url, 'skill_search', { query: 'recovery probe' }, timeoutMs).catch(
        (err: unknown): ToolAnswer => ({ ok: false, code: 'LOST', message: String(err) }),
      );
      if (a.ok) return true;
      if (performance.now() - since() > graceMs) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const recovered = await Promise.all(servers.map(one));
  return recovered.every((r) => r) ? performance.now() - since() : null;
}

/**
 * Asks each server for the skills every publish changed or added (two edited and one added per
 * publish): each must be the top candidate of a search for its marker word, answered from `last`,
 * and fetchable with the pins of that answer.
 */
export async function finalChecks(
  servers: readonly McpServerProcess[],
  edits: readonly LibraryEdit[],
  last: string,
  timeoutMs: number,
): Promise<FinalCheck[]> {
  const wanted: MarkedSkill[] = edits.flatMap((e) => [
    ...e.edited.slice(0, 2),
    ...e.added.slice(0, 1),
  ]);
  const out: FinalCheck[] = [];
  for (const s of servers) {
    for (const w of wanted) {
      const a = await callTool(s.url, 'skill_search', { query: w.marker, limit: 3 }, timeoutMs);
      const pin = firstPin(a);
      let fetched = 'not tried';
      if (pin) {
        const f = await callTool(
          s.url,
          'skill_fetch',
          {
            skill_id: pin.skill_id,
            expected_revision: pin.revision_id,
            catalog_generation: pin.catalog_generation,
            context: 'load test: final check',
          },
          timeoutMs,
        );
        fetched = f.ok ? 'ok' : f.code;
      }
      const generation = a.ok ? String(a.result['catalog_generation']) : undefined;
      out.push({
        server: s.index,
        marker: w.marker,
        expected: w.skill_id,
        top: pin?.skill_id,
        generation,
        fetch: fetched,
        ok: pin?.skill_id === w.skill_id && generation === last && fetched === 'ok',
      });
    }
  }
  return out;
}

/** What a server's `GET /healthz` answered. */
export interface Health {
  readonly server: number;
  readonly status: number;
  readonly catalog_generation: string | undefined;
}

/** `GET /healthz` of each server (the load balancer's health check). */
export async function healthOf(
  servers: readonly McpServerProcess[],
  timeoutMs: number,
): Promise<Health[]> {
  const out: Health[] = [];
  for (const s of servers) {
    const res = await fetch(new URL('/healthz', s.url), { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json()) as { catalog_generation?: string };
    out.push({ server: s.index, status: res.status, catalog_generation: body.catalog_generation });
  }
  return out;
}
