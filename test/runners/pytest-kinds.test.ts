// pytest's own kinds of test (issue 19): unittest subTest, xfail and xpass, and a conftest `pytest_ignore_collect`
// hook, run by real pytest; fixcycle's counts are pytest's closing line (an xpassed test is a passed one, an
// xfailed one is set aside like a skipped one: pytest's JUnit report says so).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { counts, missingTool } from './helpers/fixtures.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const missing = missingTool(['python3', ['-m', 'pytest', '--version']]);

function project(broken: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-pytest-kinds-'));
  dirs.push(dir);
  const files: Record<string, string> = {
    'tox.ini': '[pytest]\ntestpaths = tests\n',
    'conftest.py':
      'def pytest_ignore_collect(collection_path, config):\n    return collection_path.name == "ignored"\n',
    'tests/ignored/test_never.py':
      'def test_never():\n    raise SystemExit("collected although the hook ignores it")\n',
    'tests/test_kinds.py': [
      'import unittest',
      'import pytest',
      '',
      'def double(x):',
      `    return ${broken ? 'x * 2 if x != 2 else 5' : 'x * 2'}`,
      '',
      'class DoubleTest(unittest.TestCase):',
      '    def test_many(self):',
      '        for n in range(3):',
      '            with self.subTest(n=n):',
      '                self.assertEqual(double(n), n + n)',
      '',
      '@pytest.mark.xfail(reason="known")',
      'def test_known_bug():',
      '    assert double(3) == 7',
      '',
      '@pytest.mark.xfail(reason="fixed since")',
      'def test_fixed_since():',
      '    assert double(1) == 2',
      '',
      'def test_plain():',
      '    assert double(1) == 2',
      '',
      '@pytest.mark.skip(reason="not here")',
      'def test_skipped():',
      '    pass',
      '',
    ].join('\n'),
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

describe('pytest: subTest, xfail/xpass and pytest_ignore_collect', () => {
  it.skipIf(missing !== null)(
    `counts what pytest's closing line counts, unbroken and broken${missing ? ` (${missing})` : ''}`,
    async () => {
      for (const broken of [false, true]) {
        const dir = project(broken);
        const printed: string[] = [];
        const run = await (
          await resolveRunner(dir, {})
        ).run({ cwd: dir, scope: 'full', timeoutMs: 120_000, onLines: (lines) => printed.push(...lines) });
        const output = stripVTControlCharacters(printed.join('\n'));
        const closing = /^=+ (.*) in [\d.]+s/m.exec(output)?.[1] ?? '';
        const said = (word: string) => Number(new RegExp(`(\\d+) ${word}\\b`).exec(closing)?.[1] ?? 0);
        // pytest 7 and 8 count a test whose subTest fails once, failed; pytest 9 counts the failing subtest
        // (SUBFAILED) and the test holding it, as passed: its line then has one passed more than tests collected.
        const subtestsCounted = /^SUBFAILED/m.test(output) ? 1 : 0;
        expect(output).toMatch(/collected 5 items/);
        expect(run.result.tests).toHaveLength(5);
        expect(counts(run.result)).toMatchObject({
          passed: said('passed') + said('xpassed') - subtestsCounted,
          failed: said('failed'),
          skipped: said('skipped') + said('xfailed'),
        });
        expect(counts(run.result)).toEqual(
          broken ? { passed: 2, failed: 1, skipped: 2, errors: 0 } : { passed: 3, failed: 0, skipped: 2, errors: 0 },
        );
        // The hook kept tests/ignored out: its test is no test of the run, and did not end it.
        expect(run.result.tests.map((t) => t.file)).not.toContain('tests/ignored/test_never.py');
        if (broken)
          expect(run.result.tests.find((t) => t.status === 'failed')).toMatchObject({
            name: 'test_many',
            message: 'AssertionError: 5 != 4',
          });
      }
    },
    120_000,
  );
});
