/**
 * The enrichment score and selection (docs/enrich.md, docs/enrich.md): distinct shared terms over
 * distinct description terms, stop-words out on both sides, case folded, no stemming, a
 * 1,536-code-point window; strictly above the floor, score then name, 5 to 10 or a refusal.
 * Property tests hold the selection to a plain model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFloor, formatScore, scoreDescription } from '../../src/enrich/index.js';
import {
  MAX_CANDIDATES as ENRICH_MAX_CANDIDATES,
  MIN_CANDIDATES as ENRICH_MIN_CANDIDATES,
  selectCandidates,
} from '../../src/enrich/select.js';
import {
  MAX_DESCRIPTION_CHARS as ENRICH_MAX_DESCRIPTION_CHARS,
  briefTerms,
} from '../../src/enrich/score.js';

const terms = (brief: string): Set<string> => new Set(briefTerms(brief));

describe('scoreDescription', () => {
  it('divides distinct shared terms by distinct description terms', () => {
    const s = scoreDescription(terms('pdf tables'), 'PDF tables, PDF forms, pdf pdf pdf');
    // Description terms: pdf, tables, forms (3 distinct); shared: pdf, tables.
    expect(s).toMatchObject({
      score: 2 / 3,
      matched_terms: ['pdf', 'tables'],
      description_terms: 3,
    });
  });

  it('leaves stop-words out of both sides, so they neither match nor dilute', () => {
    const withStops = scoreDescription(
      terms('the pdf and the tables'),
      'This is the PDF of all the tables we have',
    );
    const without = scoreDescription(terms('pdf tables'), 'PDF tables');
    expect(withStops.score).toBe(1);
    expect(without.score).toBe(1);
    expect(withStops.description_terms).toBe(2);
  });

  it('folds case and compatibility forms but does not stem', () => {
    expect(scoreDescription(terms('ＰＤＦ Export'), 'pdf EXPORT').score).toBe(1);
    expect(scoreDescription(terms('export'), 'exports').score).toBe(0);
  });

  it('scores 0 for a description without content terms, and for a brief without them', () => {
    expect(scoreDescription(terms('pdf'), 'the and of').score).toBe(0);
    expect(scoreDescription(terms('the and of'), 'pdf tables').score).toBe(0);
  });

  it(`scores only the first ${ENRICH_MAX_DESCRIPTION_CHARS} code points`, () => {
    const pad = 'x'.repeat(ENRICH_MAX_DESCRIPTION_CHARS - 4);
    const head = scoreDescription(terms('pdf'), `${pad} pdf`);
    expect(head).toMatchObject({ score: 0.5, truncated: false });
    const cut = scoreDescription(terms('pdf'), `${pad} pdf tables`); // "tables" starts past the window
    expect(cut).toMatchObject({
      score: 0.5,
      truncated: true,
      description_chars: ENRICH_MAX_DESCRIPTION_CHARS + 7,
    });
    const past = scoreDescription(terms('pdf'), `${pad}     pdf`);
    expect(past).toMatchObject({ score: 0, description_terms: 1 });
    // Astral characters count as one each and are never split.
    const astral = scoreDescription(
      terms('pdf'),
      '😀'.repeat(ENRICH_MAX_DESCRIPTION_CHARS - 4) + ' pdf',
    );
    expect(astral).toMatchObject({ score: 1, truncated: false });
  });

  it('property: a score is in [0, 1] and ignores everything past the window', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        fc.string({ maxLength: 2000 }),
        fc.string({ maxLength: 200 }),
        (brief, desc, tail) => {
          const t = terms(brief);
          const s = scoreDescription(t, desc);
          expect(s.score).toBeGreaterThanOrEqual(0);
          expect(s.score).toBeLessThanOrEqual(1);
          const points = Array.from(desc);
          if (points.length >= ENRICH_MAX_DESCRIPTION_CHARS) {
            expect(scoreDescription(t, desc + tail).score).toBe(s.score);
          }
        },
      ),
    );
  });

  it('prints scores with 4 decimals, and a floor with every digit it needs', () => {
    expect(formatScore(1 / 3)).toBe('0.3333');
    expect(formatScore(1)).toBe('1.0000');
    expect(formatFloor(0.05)).toBe('0.0500');
    expect(formatFloor(0.123456)).toBe('0.123456');
  });
});

const item = (skill_id: string, score: number) => ({ skill_id, score, path: `/s/${skill_id}` });

describe('selectCandidates', () => {
  it('keeps scores strictly above the floor', () => {
    const list = ['a', 'b', 'c', 'd', 'e'].map((id) => item(id, 0.5)).concat([item('f', 0.05)]);
    const sel = selectCandidates(list, 0.05);
    expect(sel.outcome).toBe('selected');
    expect(sel.found_count).toBe(5);
    expect(sel.candidates.map((c) => c.skill_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('refuses with 4 above the floor and names the 5 closest; never lowers the floor', () => {
    const list = [
      item('a', 0.9),
      item('b', 0.8),
      item('c', 0.7),
      item('d', 0.6),
      item('e', 0.05),
      item('f', 0.01),
    ];
    const sel = selectCandidates(list, 0.05);
    expect(sel).toMatchObject({ outcome: 'refused', found_count: 4, candidates: [] });
    expect(sel.closest.map((c) => c.skill_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('never takes more than 10', () => {
    const list = Array.from({ length: 14 }, (_, i) =>
      item(`s${String(i).padStart(2, '0')}`, 0.5 + i / 100),
    );
    const sel = selectCandidates(list, 0.05);
    expect(sel.found_count).toBe(14);
    expect(sel.candidates).toHaveLength(ENRICH_MAX_CANDIDATES);
    expect(sel.candidates[0]!.skill_id).toBe('s13');
  });

  it('property: matches a plain model and ignores input order', () => {
    const arb = fc.uniqueArray(
      fc.record({
        skill_id: fc.stringMatching(/^[a-z]{1,6}$/),
        score: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      {
        selector: (x) => x.skill_id,
        maxLength: 30,
      },
    );
    fc.assert(
      fc.property(
        arb,
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.infiniteStream(fc.nat()),
        (raw, floor, seeds) => {
          const list = raw.map((r) => item(r.skill_id, r.score));
          const shuffled = [...list]
            .map((x) => ({ x, k: seeds.next().value }))
            .sort((a, b) => a.k - b.k)
            .map((p) => p.x);
          const a = selectCandidates(list, floor);
          const b = selectCandidates(shuffled, floor);
          expect(b.candidates).toEqual(a.candidates);
          expect(b.closest).toEqual(a.closest);
          const above = list.filter((x) => x.score > floor);
          const model = [...above].sort(
            (p, q) => q.score - p.score || (p.skill_id < q.skill_id ? -1 : 1),
          );
          expect(a.found_count).toBe(above.length);
          if (above.length < ENRICH_MIN_CANDIDATES) {
            expect(a.outcome).toBe('refused');
            expect(a.candidates).toEqual([]);
          } else {
            expect(a.outcome).toBe('selected');
            expect(a.candidates).toEqual(model.slice(0, ENRICH_MAX_CANDIDATES));
          }
          expect(a.closest.length).toBe(Math.min(5, list.length));
        },
      ),
    );
  });
});
