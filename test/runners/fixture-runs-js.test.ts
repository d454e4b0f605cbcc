import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSummaryLine } from '../../src/engine/report/index.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { copyFixture, counts, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

interface Case {
  fixture: string;
  runner: string;
  /** What fixcycle reads: tests by status, and errors outside tests. */
  parsed: { passed: number; failed: number; skipped: number; errors: number };
  /** What the runner's own summary line says, or null when it crashed before printing one. */
  summary: { passed: number; failed: number; skipped: number } | null;
  /** Part of the first error, for runs that produced no usable report. */
  error?: RegExp;
  /** True when the runner died before writing any report: only the exit code and output are left. */
  noReport?: true;
}

// Skipped counts include todo and pending tests, as the runners' own summaries do.
const CASES: Case[] = [
  {
    fixture: 'vitest-passing',
    runner: 'vitest',
    parsed: { passed: 3, failed: 0, skipped: 2, errors: 0 },
    summary: { passed: 3, failed: 0, skipped: 2 },
  },
  {
    fixture: 'vitest-failing',
    runner: 'vitest',
    parsed: { passed: 1, failed: 2, skipped: 1, errors: 0 },
    summary: { passed: 1, failed: 2, skipped: 1 },
  },
  {
    fixture: 'vitest-crashing',
    runner: 'vitest',
    parsed: { passed: 0, failed: 0, skipped: 0, errors: 1 },
    summary: null,
    error: /wrote no report[\s\S]*failed to load config/,
    noReport: true,
  },
  // vitest's "Tests" line counts no test for a file that fails to import; the error is its "Failed Suites".
  {
    fixture: 'vitest-import-error',
    runner: 'vitest',
    parsed: { passed: 1, failed: 0, skipped: 0, errors: 1 },
    summary: { passed: 1, failed: 0, skipped: 0 },
    error: /divide\.js/,
  },
  {
    fixture: 'jest-passing',
    runner: 'jest',
    parsed: { passed: 3, failed: 0, skipped: 2, errors: 0 },
    summary: { passed: 3, failed: 0, skipped: 2 },
  },
  {
    fixture: 'jest-failing',
    runner: 'jest',
    parsed: { passed: 1, failed: 2, skipped: 1, errors: 0 },
    summary: { passed: 1, failed: 2, skipped: 1 },
  },
  {
    fixture: 'jest-crashing',
    runner: 'jest',
    parsed: { passed: 0, failed: 0, skipped: 0, errors: 1 },
    summary: null,
    error: /wrote no report[\s\S]*broken config/,
    noReport: true,
  },
  {
    fixture: 'jest-import-error',
    runner: 'jest',
    parsed: { passed: 1, failed: 0, skipped: 0, errors: 1 },
    summary: { passed: 1, failed: 0, skipped: 0 },
    error: /divide\.js/,
  },
  {
    fixture: 'mocha-passing',
    runner: 'mocha',
    parsed: { passed: 3, failed: 0, skipped: 2, errors: 0 },
    summary: { passed: 3, failed: 0, skipped: 2 },
  },
  {
    fixture: 'mocha-failing',
    runner: 'mocha',
    parsed: { passed: 1, failed: 2, skipped: 1, errors: 0 },
    summary: { passed: 1, failed: 2, skipped: 1 },
  },
  {
    fixture: 'mocha-crashing',
    runner: 'mocha',
    parsed: { passed: 0, failed: 0, skipped: 0, errors: 1 },
    summary: null,
    error: /wrote no report \(exit code 3\)/,
    noReport: true,
  },
  {
    fixture: 'mocha-import-error',
    runner: 'mocha',
    parsed: { passed: 0, failed: 0, skipped: 0, errors: 1 },
    summary: null,
    error: /wrote no report[\s\S]*divide\.js/,
    noReport: true,
  },
  // tape counts assertions, and so does its TAP stream.
  {
    fixture: 'tape-passing',
    runner: 'tape',
    parsed: { passed: 3, failed: 0, skipped: 0, errors: 0 },
    summary: { passed: 3, failed: 0, skipped: 0 },
  },
  {
    fixture: 'tape-failing',
    runner: 'tape',
    parsed: { passed: 1, failed: 2, skipped: 0, errors: 0 },
    summary: { passed: 1, failed: 2, skipped: 0 },
  },
  {
    fixture: 'tape-crashing',
    runner: 'tape',
    parsed: { passed: 1, failed: 0, skipped: 0, errors: 1 },
    summary: null,
    error: /stops inside test "crashes"[\s\S]*uncaught in a timer/,
  },
  {
    fixture: 'tape-import-error',
    runner: 'tape',
    parsed: { passed: 0, failed: 0, skipped: 0, errors: 1 },
    summary: null,
    error: /wrote no report[\s\S]*divide\.js/,
    noReport: true,
  },
  {
    fixture: 'node-test-passing',
    runner: 'node-test',
    parsed: { passed: 3, failed: 0, skipped: 2, errors: 0 },
    summary: { passed: 3, failed: 0, skipped: 2 },
  },
  {
    fixture: 'node-test-failing',
    runner: 'node-test',
    parsed: { passed: 1, failed: 2, skipped: 1, errors: 0 },
    summary: { passed: 1, failed: 2, skipped: 1 },
  },
  // node:test counts a file whose process died as one failed test; fixcycle reads it as an error of that file.
  {
    fixture: 'node-test-crashing',
    runner: 'node-test',
    parsed: { passed: 0, failed: 0, skipped: 0, errors: 1 },
    summary: { passed: 0, failed: 1, skipped: 0 },
  },
  // `node --conditions development test.js`: a plain script importing node:test (the unified/remark way).
  {
    fixture: 'node-test-script',
    runner: 'node-test',
    parsed: { passed: 2, failed: 2, skipped: 1, errors: 0 },
    summary: { passed: 2, failed: 2, skipped: 1 },
  },
  {
    fixture: 'node-test-import-error',
    runner: 'node-test',
    parsed: { passed: 1, failed: 0, skipped: 0, errors: 1 },
    summary: { passed: 1, failed: 1, skipped: 0 },
    error: /divide\.js/,
  },
];

describe.each(CASES)('$fixture', ({ fixture, runner: expectedRunner, parsed, summary, error, noReport }) => {
  it('reads the same counts as the runner itself prints, and never calls a broken run a success', async () => {
    const dir = copyFixture(fixture);
    const logFile = join(dir, 'test-output.log');
    writeFileSync(logFile, '');
    const streamed: string[] = [];
    const runner = await resolveRunner(dir, {});
    expect(runner.name).toBe(expectedRunner);

    const run = await runner.run({
      cwd: dir,
      scope: 'full',
      timeoutMs: 60_000,
      logFile,
      onLines: (lines) => streamed.push(...lines),
    });

    expect(counts(run.result)).toEqual(parsed);
    const log = readFileSync(logFile, 'utf8');
    const printed = parseSummaryLine(log);
    if (summary === null) expect(printed).toBeNull();
    else expect(printed).toMatchObject(summary);
    expect(streamed.join('\n') + '\n').toBe(log);
    if (error) expect(run.result.errors[0]?.message).toMatch(error);
    const ok = parsed.failed === 0 && parsed.errors === 0;
    expect(run.exitCode === 0).toBe(ok);
    expect(run.source).toBe(noReport ? 'exit-code' : 'report');
  });
});
