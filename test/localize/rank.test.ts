import { describe, expect, it } from 'vitest';
import { ochiai } from '../../src/engine/localize/ochiai.js';
import {
  documentedBy,
  focusOf,
  linkOf,
  namedIn,
  rankFunctions,
  scoreLines,
  sizeScore,
  type RankInput,
  type ScoredLine,
} from '../../src/engine/localize/rank.js';
import { lineHits, splitUnits } from '../../src/engine/localize/split-units.js';
import { relatedFailures } from '../../src/engine/localize/unrelated.js';
import { planOutsideSuspects } from '../../src/engine/localize/format.js';
import { sourceFrames } from '../../src/engine/localize/stack-frames.js';
import type { Failure } from '../../src/engine/types.js';

const functions = new Map([
  [
    'src/a.js',
    [
      { name: 'parse', start: 1, end: 10 },
      { name: 'format', start: 12, end: 20 },
      { name: 'unused', start: 22, end: 30 },
    ],
  ],
  ['src/b.js', [{ name: 'helper', start: 1, end: 5 }]],
]);

describe('Ochiai spectra', () => {
  it('scores 1 a line every failing unit and no passing one ran, less as passing units run it too', () => {
    const { lines, failedUnits, passedUnits } = ochiai([
      { name: 't1', failed: true, lines: ['src/a.js:3', 'src/a.js:14'] },
      { name: 't2', failed: false, lines: ['src/a.js:14'] },
      { name: 't3', failed: false, lines: ['src/a.js:14', 'src/b.js:2'] },
    ]);
    expect([failedUnits, passedUnits]).toEqual([1, 2]);
    expect(lines.get('src/a.js:3')!.score).toBe(1);
    expect(lines.get('src/a.js:14')!.score).toBeCloseTo(1 / Math.sqrt(3));
    expect(lines.has('src/b.js:2')).toBe(false);
  });
});

describe('ranking per function', () => {
  const spectrum = {
    ...ochiai([
      { name: 't1', failed: true, lines: ['src/a.js:3', 'src/a.js:14'] },
      { name: 't2', failed: false, lines: ['src/a.js:14'] },
    ]),
    granularity: 'file' as const,
  };

  it('the changed function the failing tests ran comes first; evidence says why', () => {
    const input: RankInput = {
      spectrum,
      frames: [],
      changed: new Map([['src/a.js', new Set([14])]]),
      changeBase: 'abcdef123456',
      functions,
    };
    const ranked = rankFunctions(input, scoreLines(input));
    expect(ranked.map((s) => s.function)).toEqual(['format', 'parse']);
    expect(ranked[0]!.evidence.join(' ')).toMatch(/change: line 14 changed since abcdef1/);
    expect(ranked[0]!.evidence.join(' ')).toMatch(
      /Ochiai 0.707 at line 14 \(run by 1 of 1 failing and 1 of 1 passing test files\)/,
    );
  });

  it('without the change, coverage ranks first; a stack frame the failing tests never ran does not outrank it', () => {
    const input: RankInput = {
      spectrum,
      frames: [{ file: 'src/b.js', line: 2, weight: 1, test: 't1' }],
      changed: new Map(),
      functions,
    };
    const ranked = rankFunctions(input, scoreLines(input));
    expect(ranked.map((s) => s.function)).toEqual(['parse', 'format', 'helper']);
    expect(ranked[2]!.scores).toEqual({ stack: 1 });
  });

  it('a changed function the failing tests never ran counts half', () => {
    const input: RankInput = {
      spectrum,
      frames: [],
      changed: new Map([['src/a.js', new Set([25])]]),
      changeBase: 'HEAD',
      functions,
    };
    const ranked = rankFunctions(input, scoreLines(input));
    expect(ranked.find((s) => s.function === 'unused')!.scores.change).toBe(0.5);
    expect(ranked.find((s) => s.function === 'unused')!.evidence).toEqual([
      'change: line 25 changed since the last commit (uncommitted)',
    ]);
  });
});

describe('what breaks a tie in coverage', () => {
  // Every function run by the failing test alone: Ochiai 1 for all three, in file order big, tiny, other.
  const tied = (extra: Partial<RankInput>): RankInput => ({
    spectrum: {
      ...ochiai([{ name: 'f', failed: true, lines: ['src/m.js:2', 'src/m.js:40', 'src/m.js:45'] }]),
      granularity: 'split',
    },
    frames: [],
    changed: new Map(),
    functions: new Map([
      [
        'src/m.js',
        [
          { name: 'big', start: 1, end: 38 },
          { name: 'tiny', start: 40, end: 40 },
          { name: 'other', start: 42, end: 50 },
        ],
      ],
    ]),
    ...extra,
  });
  const order = (input: RankInput): string[] => rankFunctions(input, scoreLines(input)).map((s) => s.function);

  it('the smaller function first, the evidence saying its size', () => {
    const ranked = rankFunctions(tied({}), scoreLines(tied({})));
    expect(ranked.map((s) => s.function)).toEqual(['tiny', 'other', 'big']);
    expect(ranked[0]!.evidence).toContain('size: 1 line(s) (smaller ranks higher among equals)');
    expect(sizeScore(1)).toBeGreaterThan(sizeScore(200));
  });

  it('among functions tied on their best line, the one the failing tests alone ran throughout goes first', () => {
    // `dispatch` (lines 1-9) runs for every test and calls `greater` (lines 11-19) on the branch at line 5, which
    // only the failing tests take: both have a line at Ochiai 1, but in `dispatch` it is one line of four.
    const run = (failed: boolean, lines: number[]) => ({
      name: String(lines),
      failed,
      lines: lines.map((l) => `src/e.js:${l}`),
    });
    const input: RankInput = {
      spectrum: {
        ...ochiai([
          run(true, [2, 3, 4, 5, 12, 13, 14]),
          run(true, [2, 3, 4, 5, 12, 13, 14]),
          run(false, [2, 3, 4, 6]),
          run(false, [2, 3, 4, 7]),
        ]),
        granularity: 'test',
      },
      frames: [],
      changed: new Map(),
      functions: new Map([
        [
          'src/e.js',
          [
            { name: 'dispatch', start: 1, end: 9 },
            { name: 'greater', start: 11, end: 19 },
          ],
        ],
      ]),
    };
    const ranked = rankFunctions(input, scoreLines(input));
    expect(ranked.map((s) => [s.function, s.scores.coverage])).toEqual([
      ['greater', 1],
      ['dispatch', 1],
    ]);
    expect(ranked[0]!.evidence).toContain(
      'focus: 3 of the 3 lines the failing tests ran are at its best (more ranks higher among equals)',
    );
    expect(ranked[1]!.evidence).toContain(
      'focus: 1 of the 4 lines the failing tests ran are at its best (more ranks higher among equals)',
    );
    expect(focusOf([1, 0.5, 0.5, 1])).toBe(0.75);
    expect(focusOf([])).toBe(0);
  });

  it('a failing doc test links the function it documents, the first of its name after its example', () => {
    // once_cell: `sync::OnceCell::take` and `unsync::OnceCell::take` both say `take`; the failing doc test's
    // example at line 614 documents the one after it. No coverage (stable rustdoc keeps no instrumented doc test).
    const input: RankInput = {
      spectrum: null,
      frames: [],
      changed: new Map(),
      functions: new Map([
        [
          'src/lib.rs',
          [
            { name: 'OnceCell::get', start: 600, end: 606 },
            { name: 'OnceCell::take', start: 637, end: 640 },
            { name: 'tests::take', start: 900, end: 905, test: true },
            { name: 'OnceCell::take', start: 1163, end: 1165 },
          ],
        ],
      ]),
      failing: { names: ['src/lib.rs - unsync::OnceCell<T>::take (line 614)'], files: [] },
    };
    // The candidates the failing test names (`calledFunctions` adds them where no coverage was measured).
    const lines: ScoredLine[] = [638, 1164].map((line) => ({
      file: 'src/lib.rs',
      line,
      score: 0,
      parts: { stack: 0 },
    }));
    const ranked = rankFunctions(input, lines);
    expect(ranked.map((s) => s.startLine)).toEqual([637, 1163]);
    expect(ranked[0]!.evidence).toContain('name: a failing doc test documents it (its example at line 614)');
    expect(documentedBy(['src/lib.rs - Either<L,R>::is_left (line 114)'], input.functions)).toEqual(new Map());
  });

  it('a stack frame near the throw lifts a function among equals, never above better coverage', () => {
    expect(order(tied({ frames: [{ file: 'src/m.js', line: 2, weight: 1, test: 'f' }] }))[0]).toBe('big');
    const below: RankInput = {
      ...tied({ frames: [{ file: 'src/m.js', line: 2, weight: 1, test: 'f' }] }),
      spectrum: {
        ...ochiai([
          { name: 'f', failed: true, lines: ['src/m.js:2', 'src/m.js:40'] },
          { name: 'p', failed: false, lines: ['src/m.js:2'] },
        ]),
        granularity: 'split',
      },
    };
    expect(order(below)[0]).toBe('tiny');
  });

  it("a function the failing test's name or file names goes first among equals", () => {
    expect(order(tied({ failing: { names: ['other handles empty input'], files: [] } }))[0]).toBe('other');
    expect(
      linkOf('src/month-names-conversion.js', 'convert', { names: [], files: ['test/month-names-conversion-test.js'] }),
    ).toEqual({
      score: 0.2,
      why: ['name: the failing test file is named after src/month-names-conversion.js'],
    });
    expect(linkOf('index.js', 'parse', { names: [], files: ['test/index.test.js'] }).score).toBe(0);
    expect(
      linkOf('lib/option.js', 'camelcase > (reduce callback)', {
        names: [],
        files: ['tests/options.camelcase.test.js'],
      }),
    ).toEqual({ score: 0.2, why: ['name: a failing test file is named after camelcase'] });
  });

  it("a failing test's name says a function in an inflected word, not in a longer one", () => {
    const name = ['sprintfjs > should return formated strings for simple placeholders'];
    expect(namedIn('format', name)).toBe(0.5);
    expect(namedIn('format', ['returns formatted strings'])).toBe(0.5);
    expect(namedIn('parse', ['parsing a date', 'parses dates'])).toBe(0.5);
    expect(namedIn('monthName', ['converts month names'])).toBe(0.5);
    expect(namedIn('parse', name)).toBe(0);
    expect(namedIn('place', name)).toBe(0);
    expect(namedIn('set', ['reads the settings'])).toBe(0);
  });

  it('a function most failing tests name or call outranks one a single failing test names', () => {
    const names = ['Create error with zero parameter', 'Create error with 2 parameters', 'toString returns code'];
    const calls = new Map([
      ['createError', 1],
      ['toString', 1 / 3],
    ]);
    const create = linkOf('index.js', 'createError', { names, files: [], calls });
    const toString = linkOf('index.js', 'toString', { names, files: [], calls });
    expect(create.score).toBeGreaterThan(toString.score);
    expect(create.why[0]).toBe('name: 2 of 3 failing test name(s) say createError');
  });
});

describe('split units', () => {
  it('tells the passing tests of the failing files from the failing tests by their hit counts', () => {
    const whole = lineHits({ 'a.js': { lines: { 1: 3, 2: 1, 3: 0 }, branches: [] } });
    const failing = lineHits({ 'a.js': { lines: { 1: 1, 2: 1, 3: 0 }, branches: [] } });
    expect(splitUnits(whole, failing)).toEqual([
      { name: 'the failing tests', failed: true, lines: ['a.js:1', 'a.js:2'] },
      { name: 'the passing tests of the same files', failed: false, lines: ['a.js:1'] },
    ]);
  });

  it('with several failing tests, a line run once counts as run by one of them, a line run by each by all', () => {
    // Three failing tests: createError's line ran three times, toString's once (one of them prints the error).
    const failing = lineHits({ 'i.js': { lines: { 6: 1, 15: 3 }, branches: [] } });
    const whole = lineHits({ 'i.js': { lines: { 6: 1, 15: 5 }, branches: [] } });
    const { lines } = ochiai(splitUnits(whole, failing, 3));
    expect(lines.get('i.js:15')).toMatchObject({ failed: 3, passed: 1 });
    expect(lines.get('i.js:6')).toMatchObject({ failed: 1, passed: 0 });
    expect(lines.get('i.js:15')!.score).toBeGreaterThan(lines.get('i.js:6')!.score);
  });
});

describe('the failing unit', () => {
  const failure = (id: string, message: string): Failure => ({
    id,
    name: id,
    message,
    criticality: 'medium',
    criticality_source: 'default',
  });

  it('leaves out tests stopped by their time limit while other failures remain', () => {
    const wrong = failure('parses', 'expected 1 to equal 2');
    const slow = failure(
      'fetches',
      'Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure "done()" is called',
    );
    expect(relatedFailures([wrong, slow])).toEqual({ related: [wrong], timeouts: [slow] });
    // Timeouts alone are the failure to localize.
    expect(relatedFailures([slow]).related).toEqual([slow]);
  });
});

describe('stack frames', () => {
  const failure = (stack: string): Failure => ({
    id: 't',
    name: 't',
    message: 'boom',
    stack,
    criticality: 'medium',
    criticality_source: 'default',
  });

  it('keeps the project source frames, innermost first, skipping libraries and tests; Python prints innermost last', () => {
    const js = sourceFrames(
      [
        failure(
          'Error: boom\n    at parse (/repo/src/a.js:3:9)\n    at run (/repo/node_modules/x/index.js:1:1)\n    at Object.<anonymous> (/repo/test/a.test.js:5:3)\n    at helper (/repo/src/b.js:2:1)',
        ),
      ],
      '/repo',
    );
    expect(js.map((f) => [f.file, f.line, f.weight])).toEqual([
      ['src/a.js', 3, 1],
      ['src/b.js', 2, 1 / 3],
    ]);
    const py = sourceFrames(
      [
        failure(
          'tests/test_a.py:10: in test_x\n    first([])\npkg/mod.py:4: in first\n    return xs[0]\nE   IndexError',
        ),
      ],
      '/repo',
    );
    expect(py.map((f) => [f.file, f.line, f.weight])).toEqual([['pkg/mod.py', 4, 1]]);
  });
});

describe('plans outside the suspects', () => {
  const suspects = [
    {
      file: 'src/a.js',
      function: 'format',
      startLine: 12,
      endLine: 20,
      score: 0.7,
      lines: [14],
      scores: {},
      evidence: [],
    },
  ];
  it('warns only when no modification point falls inside a suspect, by lines or by function', () => {
    expect(planOutsideSuspects(['src/a.js:format:14-15'], suspects)).toBeNull();
    expect(planOutsideSuspects(['src/a.js:format'], suspects)).toBeNull();
    expect(planOutsideSuspects(['src/a.js:parse:2-3'], suspects)).toMatch(
      /outside every suspect.*src\/a.js:format:12-20/,
    );
    expect(planOutsideSuspects(['src/c.js'], suspects)).toMatch(/outside every suspect/);
  });

  it('reads `file:12-14` and `file:14` (no function) as lines', () => {
    expect(planOutsideSuspects(['src/a.js:14-14'], suspects)).toBeNull();
    expect(planOutsideSuspects(['src/a.js:19'], suspects)).toBeNull();
    expect(planOutsideSuspects(['src/a.js:2-3'], suspects)).toMatch(/outside every suspect/);
  });
});
