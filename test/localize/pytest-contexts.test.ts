import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { makeRepo, removeRepos } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize } from '../../src/engine/localize/index.js';
import { failuresOf } from './failures-of.js';

afterAll(removeRepos);

// The python3 that has pytest and coverage.py: the one on PATH, or under pyenv the system one (Debian's).
const CANDIDATES: Record<string, string>[] = [{}, { PYENV_VERSION: 'system' }];
const PYTHON_ENV =
  CANDIDATES.find(
    (env) =>
      spawnSync('python3', ['-c', 'import pytest, coverage'], { stdio: 'ignore', env: { ...process.env, ...env } })
        .status === 0,
  ) ?? null;

const project = {
  'stats.py': [
    'def mean(xs):',
    '    return sum(xs) / len(xs)',
    '',
    '',
    'def spread(xs):',
    '    lo = min(xs)',
    '    hi = max(xs)',
    '    return hi - lo + 1',
    '',
  ].join('\n'),
  'pytest.ini': '[pytest]\ntestpaths = tests\n',
  'tests/test_stats.py': [
    'from stats import mean, spread',
    '',
    '',
    'def test_mean():',
    '    assert mean([1, 3]) == 2',
    '',
    '',
    'def test_spread():',
    '    assert spread([1, 4]) == 3',
    '',
    '',
    'def test_both():',
    '    assert mean([2, 2]) == 2',
    '',
  ].join('\n'),
};

/** The project in a repository, run whole with the python3 that has coverage.py: its failures. */
async function broken(files: Record<string, string>) {
  const repo = makeRepo(null, files);
  const env = Object.entries(PYTHON_ENV ?? {})
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  const runner = await resolveRunner(repo, { testCmd: `${env}python3 -m pytest` });
  const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 });
  return { repo, runner, failures: failuresOf(run.result.tests) };
}

describe('pytest: per-test spectra from coverage.py contexts', () => {
  it.skipIf(!PYTHON_ENV)(
    'tells each test apart: the function only the failing test runs comes first',
    async () => {
      const { repo, runner, failures } = await broken(project);
      expect(failures.map((f) => f.name)).toEqual(['test_spread']);
      const found = await localize({ root: repo, runner, failures, timeoutMs: 120_000, changeBase: null });
      expect(found.granularity).toBe('test');
      expect(found.suspects[0]).toMatchObject({ file: 'stats.py', function: 'spread', startLine: 5, endLine: 8 });
      expect(found.suspects[0]!.evidence[0]).toMatch(
        /Ochiai 1 at line \d \(run by 1 of 1 failing and 0 of 2 passing tests\)/,
      );
      expect(found.suspects.find((s) => s.function === 'mean')).toBeUndefined();
    },
    120_000,
  );

  // One test function over data cases, each in self.subTest: a unit per case. Its first case fails and a later
  // one skips, either of which pytest before 9 (no subtest reports) would end the test on; as one unit, `add`
  // and `mul` both run only in the failing test and tie.
  const cases = {
    'ops.py': [
      'def add(xs):',
      '    return sum(xs)',
      '',
      '',
      'def mul(xs):',
      '    return xs[0] * xs[-1] + (1 if len(xs) > 2 else 0)',
      '',
    ].join('\n'),
    'pytest.ini': '[pytest]\ntestpaths = tests\n',
    'tests/__init__.py': '',
    'tests/test_cases.py': [
      'import unittest',
      '',
      'from ops import add, mul',
      '',
      'CASES = [',
      '    (mul, [2, 3, 4], 24),',
      '    (add, [1, 2], 3),',
      '    (None, [2, 3], 8),',
      '    (add, [4], 4),',
      '    (mul, [5, 1, 2], 10),',
      '    (mul, [3, 3], 9),',
      ']',
      '',
      '',
      'class TestCases(unittest.TestCase):',
      '    def test_cases(self):',
      '        for op, xs, want in CASES:',
      '            with self.subTest(xs=xs):',
      '                if op is None:',
      '                    self.skipTest("no pow yet")',
      '                self.assertEqual(op(xs), want)',
      '',
    ].join('\n'),
  };

  it.skipIf(!PYTHON_ENV)(
    "tells a loop's subtests apart: the function its failing cases alone run comes first, alone",
    async () => {
      const { repo, runner, failures } = await broken(cases);
      expect(failures.map((f) => f.name)).toEqual(['test_cases']);
      const found = await localize({ root: repo, runner, failures, timeoutMs: 120_000, changeBase: null });
      expect(found.granularity).toBe('test');
      expect(found.suspects[0]).toMatchObject({ file: 'ops.py', function: 'mul' });
      // The two failing cases (the third mul case passes), against the two add cases and that mul case.
      expect(found.suspects[0]!.evidence[0]).toMatch(
        /Ochiai 0\.816 at line 6 \(run by 2 of 2 failing and 1 of 3 passing tests\)/,
      );
      expect(found.suspects.find((s) => s.function === 'add')).toBeUndefined();
      expect(found.suspects[0]!.score).toBeGreaterThan(found.suspects[1]?.score ?? 0);
    },
    120_000,
  );
});
