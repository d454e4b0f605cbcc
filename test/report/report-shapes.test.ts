import { describe, expect, it } from 'vitest';
import { parseSummaryLine, summarizeResult } from '../../src/engine/report/index.js';
import { readParsed, readReport } from './fixture.js';

// Four report shapes from the real runners (issue 29), each counted as its runner counts the same run:
// its own summary, printed beside the report or inside the stream.
function closingCounts(path: string) {
  const line = parseSummaryLine(readReport(path));
  if (!line) throw new Error(`${path}: no summary line`);
  return line;
}

describe('report shapes counted as their runners count them', () => {
  it('jest-junit with skipped tests and a todo: jest counts them apart, fixcycle counts both as skipped', () => {
    const summary = summarizeResult(readParsed('jest/junit-skipped.xml'));
    expect(summary).toMatchObject({ passed: 1, failed: 1, skipped: 3, errors: 0 });
    expect(readReport('jest/junit-skipped.out.txt')).toContain(
      'Tests:       1 failed, 2 skipped, 1 todo, 1 passed, 5 total',
    );
  });

  it('node:test TAP with subtests: a test holding subtests is a test, a todo is skipped', () => {
    const summary = summarizeResult(readParsed('node-test/subtest.tap'));
    expect(summary).toMatchObject({ passed: 2, failed: 2, skipped: 2, errors: 0 });
    const out = readReport('node-test/subtest.out.txt');
    expect(out).toMatch(/ℹ pass 2\nℹ fail 2\nℹ cancelled 0\nℹ skipped 1\nℹ todo 1/);
  });

  it('node:test TAP with nested describe suites: suites are no tests', () => {
    const summary = summarizeResult(readParsed('node-test/suite.tap'));
    expect(summary).toMatchObject({ passed: 4, failed: 1, skipped: 0, errors: 0 });
    expect(readReport('node-test/suite.out.txt')).toMatch(/ℹ tests 5\nℹ suites 2\nℹ pass 4\nℹ fail 1/);
  });

  it('tape TAP with a todo test and a todo assertion: tape puts them, a failing one too, among its passes', () => {
    const summary = summarizeResult(readParsed('tape/todo.tap'));
    expect(summary).toMatchObject({ passed: 2, failed: 0, skipped: 3, errors: 0, ok: true });
    expect(closingCounts('tape/todo.tap')).toMatchObject({ passed: summary.passed + summary.skipped, failed: 0 });
  });

  it('tape TAP cut by a throw in a timer: the assertions before it, and the throw as an error of its test', () => {
    const result = readParsed('tape/throw-async.tap');
    expect(summarizeResult(result)).toMatchObject({ passed: 2, failed: 0, errors: 1, truncated: true, ok: false });
    expect(result.errors[0]?.message).toMatch(/stream stops inside test "reads the config"/);
    expect(readReport('tape/throw-async.err.txt')).toContain(
      "TypeError: Cannot read properties of undefined (reading 'port')",
    );
  });

  it('tape TAP cut by a throw after a failing assertion, stderr in the stream: the failure, and the throw', () => {
    const result = readParsed('tape/throw-sync-combined.tap');
    expect(summarizeResult(result)).toMatchObject({ passed: 1, failed: 1, errors: 1, truncated: true });
    expect(result.errors[0]?.message).toMatch(/TypeError: Cannot read properties of undefined \(reading 'port'\)/);
  });
});
