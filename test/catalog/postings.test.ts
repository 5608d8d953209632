/**
 * The stored forward terms (src/catalog/write/postings.ts): `forwardOfTerms`, which reads a search's
 * query terms from a row without parsing its body terms, equals `decodeForward` on random
 * documents, for terms that are present, absent, prefixes of present terms, or `len`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bodyTermsOf,
  decodeForward,
  documentTerms,
  encodeForward,
  forwardOfTerms,
} from '../../src/catalog/write/postings.js';

const WORDS = ['pdf', 'pdfs', 'table', 'tf', 'len', 'a', 'extract', 'x1', '2024', 'résumé', 't'];
const text = fc.array(fc.constantFrom(...WORDS, 'The', 'of', '-', ' '), { maxLength: 30 });

describe('forwardOfTerms', () => {
  it('equals decodeForward for every asked term on random documents', () => {
    fc.assert(
      fc.property(
        text,
        text,
        text,
        fc.option(text, { nil: undefined }),
        fc.array(fc.constantFrom(...WORDS, 'pd', 'able', 'zzz'), { maxLength: 6 }),
        (name, keywords, description, body, asked) => {
          const bodyTerms = body === undefined ? null : bodyTermsOf(body.join(' '));
          const doc = documentTerms({
            name: name.join(' '),
            keywords: keywords.filter((w) => w.trim() !== ''),
            tags: [],
            description: description.join(' '),
            body: bodyTerms ?? { tf: {}, len: 0 },
          });
          const fwd = encodeForward(doc.terms);
          const stored = bodyTerms === null ? null : JSON.stringify(bodyTerms);
          const full = decodeForward(fwd, stored);
          const got = forwardOfTerms(fwd, stored, asked);
          asked.forEach((t, i) => {
            const want = Object.hasOwn(full, t) ? full[t] : [0, 0, 0, 0];
            expect(got.tf[i]).toEqual(want);
          });
          const names = Object.keys(full).filter((t) => full[t]![0] > 0);
          expect([...got.nameTerms].sort()).toEqual(names.sort());
        },
      ),
      { numRuns: 500 },
    );
  });
});
