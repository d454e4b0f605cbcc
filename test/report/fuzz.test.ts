import { describe, expect, it } from 'vitest';
import {
  parseReport,
  REPORT_FORMATS,
  summarizeResult,
  type ParseOutcome,
  type ReportFormat,
} from '../../src/engine/report/index.js';
import { readReport, REPORT_FIXTURES } from './fixture.js';

/** mulberry32: a small seeded PRNG, so a failing case can be replayed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATUSES = new Set(['passed', 'failed', 'skipped']);
// Pieces of real report syntax, so mutations land on what parsers care about.
const TOKENS = [
  '<',
  '>',
  '</testcase>',
  '<testsuite name="x">',
  '"',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '\n',
  'ok 1',
  'not ok',
  '1..3',
  '# Subtest: s',
  '  ---',
  '  ...',
  '&amp;',
  '&#xA;',
  '<?xml version="1.0"?>',
  '"Action":"fail"',
  '\u0000',
  '\uFFFD',
  '日本',
  '🚀',
];

/** Checks an outcome is a well-formed value: a result of known shape, or a one-line error. */
function expectWellFormed(outcome: ParseOutcome, label: string): void {
  expect(typeof outcome.ok, label).toBe('boolean');
  if (!outcome.ok) {
    expect(outcome.error, label).toMatch(/\S/);
    expect(outcome.error, label).not.toContain('\n');
    return;
  }
  expect(Array.isArray(outcome.result.tests) && Array.isArray(outcome.result.errors), label).toBe(true);
  for (const test of outcome.result.tests) {
    expect(typeof test.id === 'string' && STATUSES.has(test.status), label).toBe(true);
  }
}

function isGoodRun(outcome: ParseOutcome): boolean {
  return outcome.ok && summarizeResult(outcome.result).ok;
}

function parseAs(text: string, format: ReportFormat | undefined, label: string): ParseOutcome {
  let outcome: ParseOutcome | undefined;
  expect(() => (outcome = parseReport(text, format)), label).not.toThrow();
  expectWellFormed(outcome!, label);
  return outcome!;
}

const fixtures = REPORT_FIXTURES.map(([path, format]) => ({ path, format, text: readReport(path) }));

describe('report parsers under fuzzing (seeded)', () => {
  it('a cut-off report never claims more success than the whole one (1,600 cuts)', () => {
    const random = prng(1);
    for (const { path, format, text } of fixtures) {
      const whole = parseReport(text, format);
      const offsets = [0, 1, ...Array.from({ length: 38 }, () => Math.floor(random() * text.length))];
      for (const offset of offsets) {
        const cut = text.slice(0, offset);
        for (const as of [format, undefined]) {
          const outcome = parseAs(cut, as, `${path} cut at ${offset} as ${as ?? 'detected'}`);
          if (isGoodRun(outcome) && outcome.ok && whole.ok) {
            // Only a cut in trailing text (summary comments, whitespace) may still read as a good run.
            expect(isGoodRun(whole), `${path} cut at ${offset}`).toBe(true);
            const [a, b] = [summarizeResult(outcome.result), summarizeResult(whole.result)];
            expect([a.passed, a.skipped], `${path} cut at ${offset}`).toEqual([b.passed, b.skipped]);
          }
        }
      }
    }
  });

  it('random bytes fed to every parser give a clear error or a result that is not ok (3,500 inputs)', () => {
    const random = prng(2);
    for (let i = 0; i < 500; i += 1) {
      const length = Math.floor(random() * 600);
      const chars = Array.from({ length }, () =>
        String.fromCharCode(Math.floor(random() * (random() < 0.9 ? 128 : 0xd7ff))),
      );
      const text = chars.join('');
      for (const format of [...REPORT_FORMATS, undefined]) {
        const outcome = parseAs(text, format, `random #${i} as ${format ?? 'detected'}`);
        expect(isGoodRun(outcome), `random #${i} as ${format ?? 'detected'} read as a good run`).toBe(false);
      }
    }
  });

  it('mutated reports never make a parser throw (1,600 mutations, every format)', () => {
    const random = prng(3);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    for (const { path, text } of fixtures) {
      for (let i = 0; i < 10; i += 1) {
        let mutated = text;
        for (let edits = 1 + Math.floor(random() * 4); edits > 0; edits -= 1) {
          const at = Math.floor(random() * mutated.length);
          const kind = random();
          if (kind < 0.4) mutated = mutated.slice(0, at) + pick(TOKENS) + mutated.slice(at);
          else if (kind < 0.7) mutated = mutated.slice(0, at) + mutated.slice(at + 1 + Math.floor(random() * 40));
          else mutated = mutated.slice(0, at) + String.fromCharCode(Math.floor(random() * 256)) + mutated.slice(at + 1);
        }
        for (const format of [...REPORT_FORMATS, undefined])
          parseAs(mutated, format, `${path} mutation #${i} as ${format ?? 'detected'}`);
      }
    }
  });

  it('every parser refuses an empty document', () => {
    for (const format of REPORT_FORMATS) {
      const outcome = parseReport('', format);
      expect(outcome.ok, format).toBe(false);
    }
    expect(parseReport('').ok).toBe(false);
  });
});
