// unittest tests that call skipTest inside subTest, run by real pytest (issue 29, point 1; docutils in the
// corpus): the affected re-test after the right fix ends the failures of the subtests it ran, as a full run
// does, so the loop neither re-runs the whole suite to confirm nor calls them order-dependent.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestResults } from '../../src/engine/decisions/test-results.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import type { NormalizedResult, TestResults } from '../../src/engine/types.js';
import { counts, missingTool } from './helpers/fixtures.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const missing = missingTool(['python3', ['-m', 'pytest', '--version']]);

const CODES = (broken: boolean) =>
  `def encode(text):\n    return text.encode(${broken ? "'latin-1'" : "'utf-8'"}).hex()\n`;

/** A test whose subtests skip `skips` cases (a platform they need) and, on the broken code, fail two. */
function project(skips: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-pytest-subtest-skips-'));
  dirs.push(dir);
  const cases = [`('a', '61', None)`, `('é', 'c3a9', None)`, `('ü', 'c3bc', None)`];
  for (let n = 0; n < skips; n++) cases.push(`('${'xyz'[n]}', '7${8 + n}', 'needs Windows')`);
  const files: Record<string, string> = {
    'tox.ini': '[pytest]\ntestpaths = tests\n',
    'codes.py': CODES(true),
    'tests/__init__.py': '',
    'tests/test_codes.py': [
      'import unittest',
      'from codes import encode',
      '',
      `CASES = [${cases.join(', ')}]`,
      '',
      'class EncodeTest(unittest.TestCase):',
      '    def test_each_case(self):',
      '        for text, expected, needs in CASES:',
      '            with self.subTest(text=text):',
      '                if needs:',
      '                    self.skipTest(needs)',
      '                self.assertEqual(encode(text), expected)',
      '',
      '    def test_plain(self):',
      "        self.assertEqual(encode('a'), '61')",
      '',
    ].join('\n'),
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function results(result: NormalizedResult, input: Partial<Parameters<typeof buildTestResults>[0]>): TestResults {
  return buildTestResults({
    baseline: [],
    result,
    scope: 'full',
    source: 'report',
    exitCode: 0,
    timedOut: false,
    durationMs: 10,
    outputTail: '',
    criticality: { rules: [] },
    ...input,
  });
}

describe('pytest: skipTest inside subTest, the affected re-test after the fix', () => {
  for (const skips of [1, 2]) {
    it.skipIf(missing !== null)(
      `ends the failed subtests it ran, with ${skips} skipped subtest(s) in the same test${missing ? ` (${missing})` : ''}`,
      async () => {
        const dir = project(skips);
        const runner = await resolveRunner(dir, {});
        const broken = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
        const first = results(broken.result, {});
        expect(first.failures.map((f) => f.id)).toEqual([
          'tests/test_codes.py::EncodeTest > test_each_case > failed subtest 1',
          'tests/test_codes.py::EncodeTest > test_each_case > failed subtest 2',
        ]);
        const baseline = broken.result.tests.map(({ id, name, file, status }) => ({
          id,
          name,
          file,
          skipped: status === 'skipped',
        }));
        const previous = new Map(
          broken.result.tests.map((t) => [
            t.id,
            { status: t.status, failure: first.failures.find((f) => f.id === t.id) },
          ]),
        );

        writeFileSync(join(dir, 'codes.py'), CODES(false));
        const affected = await runner.run({
          cwd: dir,
          scope: 'affected',
          changedFiles: ['codes.py'],
          lastFailures: first.failures,
          suiteFiles: ['tests/test_codes.py'],
          timeoutMs: 120_000,
        });
        expect(affected.selection).not.toBeNull();
        // pytest reports the test with its skipped subtests only; the failed subtests are gone because they passed.
        expect(affected.result.tests.map((t) => t.id)).not.toContain(first.failures[0]!.id);
        const after = results(affected.result, { baseline, scope: 'affected', previous });
        expect(after.failures).toEqual([]);
        expect(after).toMatchObject({ passed: 2, failed: 0, pass_rate: 100 });
      },
      120_000,
    );
  }
});

/** pytest's own closing line (`1 failed, 2 passed in 0.05s`), from a bare run of the project's command. */
function closingLine(dir: string): Record<'passed' | 'failed' | 'skipped', number> {
  const out = spawnSync('python3', ['-m', 'pytest', '-p', 'no:cacheprovider'], { cwd: dir, encoding: 'utf8' }).stdout;
  const last = out.trimEnd().split('\n').at(-1)!;
  const count = (word: string): number => Number(new RegExp(`(\\d+) ${word}`).exec(last)?.[1] ?? 0);
  return { passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

describe("pytest: skipTest inside subTest, counted as pytest's closing line counts, from the first run on", () => {
  for (const skips of [1, 2]) {
    it.skipIf(missing !== null)(
      `a test that skipped ${skips} subtest(s) passes, as pytest says, with no baseline to tell${missing ? ` (${missing})` : ''}`,
      async () => {
        const dir = project(skips);
        writeFileSync(join(dir, 'codes.py'), CODES(false));
        const runner = await resolveRunner(dir, {});
        const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
        const { errors, ...own } = counts(run.result);
        expect(errors).toBe(0);
        expect(own).toEqual(closingLine(dir));
        expect(run.result.tests.find((t) => t.id === 'tests/test_codes.py::EncodeTest > test_each_case')?.status).toBe(
          'passed',
        );
        // The same on the broken code, its failed subtests each counted failed.
        writeFileSync(join(dir, 'codes.py'), CODES(true));
        const broken = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
        const { errors: brokenErrors, ...brokenCounts } = counts(broken.result);
        expect(brokenErrors).toBe(0);
        expect(brokenCounts).toEqual(closingLine(dir));
      },
      120_000,
    );
  }

  it.skipIf(missing !== null)(
    `a test skipped whole stays skipped${missing ? ` (${missing})` : ''}`,
    async () => {
      const dir = project(0);
      writeFileSync(join(dir, 'codes.py'), CODES(false));
      writeFileSync(
        join(dir, 'tests', 'test_skipped.py'),
        "import unittest\n\nclass Whole(unittest.TestCase):\n    def test_skipped(self):\n        self.skipTest('needs Windows')\n",
      );
      const run = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
      const { errors, ...own } = counts(run.result);
      expect(errors).toBe(0);
      expect(own).toEqual({ passed: 2, failed: 0, skipped: 1 });
      expect(own).toEqual(closingLine(dir));
    },
    120_000,
  );
});
