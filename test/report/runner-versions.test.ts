import { describe, expect, it } from 'vitest';
import {
  findJsonReport,
  parseReport,
  parseSummaryLine,
  printedFailures,
  type ReportFormat,
} from '../../src/engine/report/index.js';
import type { NormalizedResult, TestCase } from '../../src/engine/types.js';
import { readReport } from './fixture.js';

// Real output of runner versions found in published projects (test/fixtures/reports/README.md says how each was made).

function read(path: string, format: ReportFormat, rootDir: string): NormalizedResult {
  const outcome = parseReport(readReport(path), format, { rootDir });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
}

function tally(tests: TestCase[]): { passed: number; failed: number; skipped: number } {
  const out = { passed: 0, failed: 0, skipped: 0 };
  for (const test of tests) out[test.status]++;
  return out;
}

function byName(result: NormalizedResult, name: string): TestCase {
  const test = result.tests.find((t) => t.name === name);
  if (!test) throw new Error(`no test named ${name} in ${result.tests.map((t) => t.name).join(', ')}`);
  return test;
}

/** What node-tap itself says of each test file: its plan (`1..M`), `# failed N of M tests` and `# skip: N`, one level in. */
function tapFileSummaries(text: string): { tests: number; failed: number; skipped: number } {
  const sum = { tests: 0, failed: 0, skipped: 0 };
  for (const [, n] of text.matchAll(/^ {4}1\.\.(\d+)$/gm)) sum.tests += Number(n);
  for (const [, n] of text.matchAll(/^ {4}# failed (\d+) (?:of \d+ )?tests?$/gm)) sum.failed += Number(n);
  for (const [, n] of text.matchAll(/^ {4}# skip: (\d+)$/gm)) sum.skipped += Number(n);
  return sum;
}

describe('node-tap 12 and 16', () => {
  it.each(['node-tap/tap12-mixed.tap', 'node-tap/tap16-mixed.tap'])(
    '%s: counts what tap counts in each file (top-level subtests), not assertions',
    (path) => {
      const result = read(path, 'node-tap', '/tmp/rr/tap16');
      const own = tapFileSummaries(readReport(path));
      const counted = tally(result.tests);
      expect(own).toEqual({ tests: 10, failed: 4, skipped: 2 });
      expect(counted.passed + counted.failed + counted.skipped).toBe(own.tests);
      expect(counted.failed).toBe(own.failed);
      expect(counted.skipped).toBe(own.skipped);
      // The summary reader, used when no report can be read, sums the same lines.
      expect(parseSummaryLine(readReport(path))).toEqual({ runner: 'tap', unit: 'tests', errors: 0, ...counted });
      // The generic TAP reading counts every assertion: 16 of them.
      const points = read(path, 'tap', '/tmp/rr/tap16');
      expect(points.tests.length).toBe(16);
    },
  );

  it('names tests by subtest, never by the text of the error thrown inside them', () => {
    const result = read('node-tap/tap16-mixed.tap', 'node-tap', '/tmp/rr/tap16');
    expect(result.tests.map((t) => t.id).filter((id) => id.startsWith('test/calc.js'))).toEqual([
      'test/calc.js::adds',
      'test/calc.js::subtracts',
      'test/calc.js::nested group',
      'test/calc.js::later',
      'test/calc.js::top level assert',
    ]);
    expect(result.tests.some((t) => t.id.includes('boom'))).toBe(false);
    // After the fix the failing subtests pass under the same ids, so none goes missing.
    const fixed = read('node-tap/tap16-fixed.tap', 'node-tap', '/tmp/rr/tap16');
    expect(fixed.tests.map((t) => [t.id, t.status])).toEqual([
      ['test/calc.js::adds', 'passed'],
      ['test/calc.js::subtracts', 'passed'],
      ['test/calc.js::nested group', 'passed'],
      ['test/calc.js::later', 'skipped'],
      ['test/calc.js::top level assert', 'passed'],
    ]);
  });

  it('reports a test file that was killed before its plan as an error, beside the failed test tap saw', () => {
    // yallist 4.0.0's suite under tap 12 with a broken reverse(): an endless list grows until V8 aborts.
    const result = read('node-tap/tap12-yallist-crash.tap', 'node-tap', '/tmp/rr/corpus/yallist');
    expect(tally(result.tests)).toEqual({ passed: 26, failed: 1, skipped: 0 });
    // tap: "# failed 2 of 27 tests" = the failed assertion and the missing plan.
    expect(readReport('node-tap/tap12-yallist-crash.tap')).toMatch(/^ {4}# failed 2 of 27 tests$/m);
    expect(result.errors).toEqual([
      { file: 'test/basic.js', message: expect.stringMatching(/killed by SIGILL, no plan\)$/) },
    ]);
  });

  it("keeps tap's diff (16) or found/wanted (12), the inner subtest and the file:line", () => {
    const tap16 = read('node-tap/tap16-mixed.tap', 'node-tap', '/tmp/rr/tap16');
    expect(byName(tap16, 'subtracts').message).toMatch(
      /^objects match\ndiff:\n {2}--- expected\n {2}\+\+\+ actual[\s\S]*- {4}4,\n {2}\+ {4}3,[\s\S]*\nat test\/calc\.js:8:5$/,
    );
    expect(byName(tap16, 'nested group').message).toMatch(
      /^throws inside: TypeError: boom 42\nsource:\n[\s\S]*throw new TypeError\('boom 42'\)[\s\S]*\n {2}-+\^\n[\s\S]*\nat test\/calc\.js:13:47$/,
    );
    expect(byName(tap16, 'subtracts').file).toBe('test/calc.js');
    const tap12 = read('node-tap/tap12-mixed.tap', 'node-tap', '/tmp/rr/tap12');
    expect(byName(tap12, 'subtracts').message).toMatch(
      /^objects match\nfound:\n[\s\S]*3\n[\s\S]*wanted:\n[\s\S]*4\n[\s\S]*at test\/calc\.js:8:5$/,
    );
  });
});

describe('uvu 0.5', () => {
  it.each(['uvu/uvu0.5-mixed.out.txt', 'uvu/uvu0.5-mixed-nocolor.out.txt', 'uvu/uvu0.5-fixed.out.txt'])(
    '%s: counts equal its Total/Passed/Skipped lines',
    (path) => {
      const text = readReport(path);
      const result = read(path, 'uvu', '/tmp/rr/uvu');
      const summary = parseSummaryLine(text);
      expect(summary).toMatchObject({ runner: 'uvu' });
      expect(tally(result.tests)).toEqual({
        passed: summary!.passed,
        failed: summary!.failed,
        skipped: summary!.skipped,
      });
      expect(result.truncated).toBe(false);
    },
  );

  it('gives a failed test its name, the assertion diff and file:line, under the id it keeps once it passes', () => {
    const broken = read('uvu/uvu0.5-mixed.out.txt', 'uvu', '/tmp/rr/uvu');
    const lower = byName(broken, 'lower');
    expect(lower.id).toBe('math.js::strings > test 2');
    expect(lower.message).toMatch(
      /^lower case {2}\(is\)\n\n\s+\+\+b {4}\(Expected\)\n\s+--a {4}\(Actual\)[\s\S]*\nat tests\/math\.js:10:29$/,
    );
    expect(byName(broken, 'subtracts').message).toContain('Expected values to be deeply equal');
    const fixed = read('uvu/uvu0.5-fixed.out.txt', 'uvu', '/tmp/rr/uvu/fixed');
    expect(fixed.tests.map((t) => t.id)).toEqual(broken.tests.map((t) => t.id));
    expect(fixed.tests.find((t) => t.id === lower.id)?.status).toBe('passed');
  });
});

describe('mocha before 9 (no reporter output option)', () => {
  it('finds the JSON report mocha 5 printed among its spec output, with the same counts as its summary', () => {
    const output = readReport('mocha/mocha5-spec-and-json.out.txt');
    const json = findJsonReport(output, 'mocha-json');
    expect(json).not.toBeNull();
    const outcome = parseReport(json!, 'mocha-json', { rootDir: '/tmp/rr/mocha5' });
    if (!outcome.ok) throw new Error(outcome.error);
    const summary = parseSummaryLine(output)!;
    expect(tally(outcome.result.tests)).toEqual({
      passed: summary.passed,
      failed: summary.failed,
      skipped: summary.skipped,
    });
    // mocha 5's own JSON reporter names no file; fixcycle's reporter does (below).
    expect(outcome.result.tests.map((t) => t.id)).toContain('calc nested > throws');
  });

  it("reads the report fixcycle's own reporter wrote under mocha 5 and mocha 8 --parallel", () => {
    const mocha5 = read('mocha/mocha5-fixcycle-reporter.json', 'mocha-json', '/tmp/rr/mocha5');
    const summary = parseSummaryLine(readReport('mocha/mocha5-fixcycle-reporter.out.txt'))!;
    expect(tally(mocha5.tests)).toEqual({ passed: summary.passed, failed: summary.failed, skipped: summary.skipped });
    expect(byName(mocha5, 'throws')).toMatchObject({
      id: 'test/calc.test.js::calc nested > throws',
      message: 'TypeError: boom 42\nat test/calc.test.js:7:38',
    });
    // Two copies of the file in parallel workers: each event carries its own copy of the test.
    const parallel = read('mocha/mocha8-parallel-fixcycle-reporter.json', 'mocha-json', '/tmp/rr/mocha8');
    expect(tally(parallel.tests)).toEqual({ passed: 2, failed: 4, skipped: 2 });
  });

  it('quotes the failure section for summary-only counts, never the JSON or a coverage table', () => {
    const output = `${readReport('mocha/mocha5-spec-and-json.out.txt')}\n----------|---------|----------|---------|---------|-------------------\nFile      | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s\n----------|---------|----------|---------|---------|-------------------\nAll files |     100 |      100 |     100 |     100 |\n`;
    const printed = printedFailures(output);
    expect(printed).toMatch(/^2 failing\n\n\s+1\) calc\n\s+subtracts:/);
    expect(printed).not.toContain('"stats"');
    expect(printed).not.toContain('% Stmts');
    expect(printed).not.toContain('All files');
  });
});

describe('TAP failure evidence', () => {
  it('tape 5: the operator, expected and actual, and where', () => {
    const tape = read('tape/tape5-evidence.tap', 'tap', '/tmp/rr/tape5');
    expect(byName(tape, 'objects match').message).toBe(
      'objects match\noperator: deepEqual\nexpected: { a: 1, b: [ 2, 4 ] }\nactual: { a: 1, b: [ 2, 3 ] }\nat test/calc.js:3:30',
    );
    expect(tally(tape.tests)).toEqual({ passed: 2, failed: 2, skipped: 0 });
  });

  it("tape 5: t.error(err) keeps one id whether it passes (`null`) or fails (the error's text), and shows the error", () => {
    const failing = read('tape/tape5-error-failing.tap', 'tap', '/tmp/rr/tape5');
    const passing = read('tape/tape5-error-passing.tap', 'tap', '/tmp/rr/tape5');
    expect(failing.tests.map((t) => t.id)).toEqual(['reads > t.error', 'reads > custom msg']);
    expect(passing.tests.map((t) => t.id)).toEqual(failing.tests.map((t) => t.id));
    expect(failing.tests.map((t) => t.message)).toEqual([
      'Error: ENOENT: no such file\noperator: error\nat test/err.js:2:26',
      'custom msg\nerror: Error: x\noperator: error\nat test/err.js:2:96',
    ]);
  });

  it("node:test: the assertion's diff and the failing line, not the test's start", () => {
    const node = read('node-test/node20-evidence.tap', 'tap', '/tmp/rr/nodetest');
    expect(byName(node, 'subtracts').message).toMatch(
      /^AssertionError: Expected values to be strictly deep-equal:\n\+ actual - expected[\s\S]*\+ {5}3\n- {5}4[\s\S]*operator: deepStrictEqual\nat test\/calc\.test\.js:4:34$/,
    );
    expect(byName(node, 'throws').message).toBe('TypeError: boom 42\nat test/calc.test.js:6:30');
    expect(tally(node.tests)).toEqual({ passed: 1, failed: 3, skipped: 0 });
  });

  it('node:test YAML with duplicate keys (which YAML rejects): the block as printed', () => {
    const result = read('hand-written/node-test-duplicate-keys.tap', 'tap', '/');
    expect(result.tests[0]!.message).toBe(
      "b\nerror: |-\n  Expected\ncode: 'ERR_ASSERTION'\nfoo: 2\nfoo: 1\noperator: 'deepEqual'",
    );
  });

  it('ava 6: a file that does not load and the worker that exits are errors, not tests named after their text', () => {
    const ava = read('ava/ava6-import-error.tap', 'tap', '/tmp/rr/corpus/escape-string-regexp');
    expect(ava.tests).toEqual([]);
    expect(ava.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Directory import '\S+' is not supported[\s\S]*Did you mean to import "\.\/index\.js"\?$/),
      'test.js exited with a non-zero exit code: 1',
    ]);
  });

  it("ava 6: its difference and the thrown error's place", () => {
    const text = readReport('ava/ava6-mixed.tap');
    const ava = read('ava/ava6-mixed.tap', 'tap', '/tmp/rr/ava6');
    const own = parseSummaryLine(text)!;
    expect(tally(ava.tests)).toEqual({ passed: own.passed, failed: own.failed, skipped: own.skipped });
    expect(byName(ava, 'subtracts').message).toMatch(
      /^AssertionError: objects match\ndetails:\n {2}Difference \(- actual, \+ expected\):\n[\s\S]*- {5}3,\n[\s\S]*\+ {5}4,/,
    );
    expect(byName(ava, 'throws').message).toMatch(/boom 42[\s\S]*\nat test\/calc\.js:5:30$/);
  });
});
