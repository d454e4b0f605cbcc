import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSummaryLine } from '../../src/engine/report/index.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import type { ResultSource } from '../../src/engine/types.js';
import { copyFixture, counts, missingTool, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

interface Case {
  fixture: string;
  parsed: { passed: number; failed: number; skipped: number; errors: number };
  summary: Record<string, number | string> | null;
  source: ResultSource;
  error?: RegExp;
}

const TOOLS: { runner: string; probe: [string, string[]][]; cases: Case[] }[] = [
  {
    runner: 'pytest',
    probe: [
      ['pytest', ['--version']],
      ['python3', ['-m', 'pytest', '--version']],
    ],
    cases: [
      {
        fixture: 'pytest-passing',
        parsed: { passed: 3, failed: 0, skipped: 1, errors: 0 },
        summary: { passed: 3, failed: 0, skipped: 1 },
        source: 'report',
      },
      {
        fixture: 'pytest-failing',
        parsed: { passed: 1, failed: 2, skipped: 1, errors: 0 },
        summary: { passed: 1, failed: 2, skipped: 1 },
        source: 'report',
      },
      {
        fixture: 'pytest-crashing',
        parsed: { passed: 0, failed: 0, skipped: 0, errors: 1 },
        summary: null,
        source: 'exit-code',
        error: /wrote no report \(exit code 3\)/,
      },
      // pytest stops at a collection error (exit 2) and counts it as an error, not a test.
      {
        fixture: 'pytest-import-error',
        parsed: { passed: 0, failed: 0, skipped: 0, errors: 1 },
        summary: { passed: 0, failed: 0, errors: 1 },
        source: 'report',
        error: /divide/,
      },
    ],
  },
  {
    runner: 'go',
    probe: [['go', ['version']]],
    cases: [
      // go's own summary is one ok/FAIL line per package: calc fails, strs passes.
      {
        fixture: 'go-failing',
        parsed: { passed: 2, failed: 1, skipped: 1, errors: 0 },
        summary: { unit: 'packages', passed: 1, failed: 1 },
        source: 'report',
      },
      {
        fixture: 'go-build-error',
        parsed: { passed: 1, failed: 0, skipped: 0, errors: 1 },
        summary: { unit: 'packages', passed: 1, errors: 1 },
        source: 'report',
        error: /did not build[\s\S]*undefined: Divide/,
      },
    ],
  },
  {
    runner: 'cargo',
    probe: [['cargo', ['--version']]],
    cases: [
      {
        fixture: 'cargo-failing',
        parsed: { passed: 1, failed: 1, skipped: 1, errors: 0 },
        summary: { passed: 1, failed: 1, skipped: 1 },
        source: 'output',
      },
      {
        fixture: 'cargo-build-error',
        parsed: { passed: 0, failed: 0, skipped: 0, errors: 1 },
        summary: null,
        source: 'exit-code',
        error: /no test results[\s\S]*E0425/,
      },
    ],
  },
];

for (const { runner: name, probe, cases } of TOOLS) {
  const missing = missingTool(...probe);
  describe.skipIf(missing !== null)(missing ? `${name} (skipped: ${missing})` : name, () => {
    it.each(cases)(
      '$fixture: reads the same counts as the runner prints',
      async ({ fixture, parsed, summary, source, error }) => {
        const dir = copyFixture(fixture);
        const logFile = join(dir, 'test-output.log');
        writeFileSync(logFile, '');
        const runner = await resolveRunner(dir, {});
        expect(runner.name).toBe(name);

        const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000, logFile });

        expect(counts(run.result)).toEqual(parsed);
        const printed = parseSummaryLine(readFileSync(logFile, 'utf8'));
        if (summary === null) expect(printed).toBeNull();
        else expect(printed).toMatchObject(summary);
        if (error) expect(run.result.errors[0]?.message).toMatch(error);
        expect(run.source).toBe(source);
        expect(run.exitCode === 0).toBe(parsed.failed === 0 && parsed.errors === 0);
      },
    );
  });
}
