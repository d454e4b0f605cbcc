import { readFile } from 'node:fs/promises';
import type { FixPlan } from '../../session/schema.js';
import type { Failure, RunError } from '../../types.js';

/** The parts of test-results.json the manual agent reads. */
export interface ManualResults {
  failures: Failure[];
  errors?: RunError[];
}

function firstLine(text: string | undefined): string {
  return (
    text
      ?.split('\n')
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 300) ?? ''
  );
}

/**
 * The plan of the manual agent: nobody analysed anything, so the root causes are the failure messages,
 * the modification points the failing tests' files, and the confidence 1 so the loop goes on to the fix,
 * which the user makes.
 */
export function manualPlan(results: ManualResults): FixPlan {
  const causes = new Set<string>();
  for (const f of results.failures) causes.add(`${f.id}: ${firstLine(f.message) || 'failed'}`);
  for (const e of results.errors ?? [])
    causes.add(`${e.file ? `${e.file}: ` : ''}${firstLine(e.message) || 'error outside tests'}`);
  const points = new Set<string>();
  for (const f of results.failures) if (f.file) points.add(`${f.file}:${f.name}:`);
  for (const e of results.errors ?? []) if (e.file) points.add(`${e.file}::`);
  return {
    root_causes: causes.size ? [...causes] : ['the tests fail without a message'],
    modification_points: points.size ? [...points] : ['(the code under test: you choose where)'],
    affected_tests: results.failures.map((f) => f.id),
    confidence_score: 1,
    approach: 'Manual: you fix the code yourself; fixcycle re-runs the tests once you have saved your changes.',
  };
}

/** Reads test-results.json; the error names the file and why it cannot be used. */
export async function readManualResults(
  path: string | undefined,
): Promise<{ ok: true; results: ManualResults } | { ok: false; error: string }> {
  if (!path) return { ok: false, error: 'FIXCYCLE_TEST_RESULTS is not set, so there are no failures to show' };
  try {
    const raw: unknown = JSON.parse(await readFile(path, 'utf8'));
    const failures = (raw as { failures?: unknown }).failures;
    if (!Array.isArray(failures)) return { ok: false, error: `${path} has no "failures" list` };
    return { ok: true, results: raw as ManualResults };
  } catch (error) {
    return { ok: false, error: `cannot read ${path}: ${(error as Error).message}` };
  }
}

/** What the user reads before fixing: the failing tests and their first message line. */
export function describeFailures(results: ManualResults, limit = 20): string[] {
  const lines = results.failures
    .slice(0, limit)
    .map((f) => `  ✗ ${f.id}${f.file && !f.id.includes(f.file) ? ` (${f.file})` : ''}: ${firstLine(f.message)}`);
  if (results.failures.length > limit) lines.push(`  ... and ${results.failures.length - limit} more`);
  for (const e of results.errors ?? []) lines.push(`  ✗ ${e.file ?? 'error outside tests'}: ${firstLine(e.message)}`);
  return lines;
}
