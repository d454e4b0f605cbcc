import type { NormalizedResult, TestCase } from '../types.js';
import { stableDoctestIds, uniquifyIds } from '../report/test-id.js';

const RESULT_LINE = /^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?)$/;
const SUMMARY_LINE = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;/;
const FAILURE_HEADER = /^---- (.+?) stdout ----$/;
const LISTED_TEST = /^(.+): test$/;

/** Counts of libtest's `test result:` lines, summed over every test binary. */
export interface LibtestSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** How many test binaries reported a summary. */
  binaries: number;
}

/**
 * Reads what `cargo test` prints on stdout: one `test <name> ... ok|FAILED|ignored` line per test, the
 * captured output of each failure under `---- <name> stdout ----`, and a `test result:` line per binary.
 * Null when the output has no test lines and no summary (a compile error): there is no result to read.
 */
export function readLibtestOutput(stdout: string): NormalizedResult | null {
  const tests: TestCase[] = [];
  const messages = new Map<string, string[]>();
  let current: string[] | null = null;
  const summary = libtestSummary(stdout);
  for (const line of stdout.split('\n')) {
    const header = FAILURE_HEADER.exec(line);
    if (header) {
      current = [];
      messages.set(header[1]!, current);
      continue;
    }
    if (current && (line === 'failures:' || line.startsWith('test result:') || line.startsWith('---- ')))
      current = null;
    if (current) {
      current.push(line);
      continue;
    }
    const result = RESULT_LINE.exec(line);
    if (!result) continue;
    const [, name, outcome] = result;
    const status = outcome === 'ok' ? 'passed' : outcome === 'FAILED' ? 'failed' : 'skipped';
    tests.push({ id: name!, name: name!, status });
  }
  if (tests.length === 0 && summary.binaries === 0) return null;
  for (const test of tests) {
    const text = messages.get(test.name)?.join('\n').trim();
    if (test.status === 'failed') test.message = text || 'test failed';
  }
  // A binary that started and never printed its summary was cut short (a crash, a kill).
  const truncated = stdout.split('\n').filter((line) => /^running \d+ tests?$/.test(line)).length > summary.binaries;
  return { format: 'libtest', tests: uniquifyIds(stableDoctestIds(tests)), errors: [], truncated };
}

/** The sum of every `test result:` line (the counts the runner itself reports). */
export function libtestSummary(stdout: string): LibtestSummary {
  const sum: LibtestSummary = { passed: 0, failed: 0, skipped: 0, binaries: 0 };
  for (const line of stdout.split('\n')) {
    const match = SUMMARY_LINE.exec(line);
    if (!match) continue;
    sum.passed += Number(match[1]);
    sum.failed += Number(match[2]);
    sum.skipped += Number(match[3]);
    sum.binaries++;
  }
  return sum;
}

/**
 * The test ids `cargo test -- --list` prints (`tests::adds: test`, `src/lib.rs - add (line 3): test`), every
 * target in the order a full run runs them, made as a full run's report makes them.
 */
export function readLibtestList(stdout: string): string[] {
  const tests: TestCase[] = [];
  for (const line of stdout.split('\n')) {
    const name = LISTED_TEST.exec(line)?.[1];
    if (name !== undefined) tests.push({ id: name, name, status: 'passed' });
  }
  return uniquifyIds(stableDoctestIds(tests)).map((test) => test.id);
}
