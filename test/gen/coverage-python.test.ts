import { describe, expect, it, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, removeRepos } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { coverageSupport, withCoverage } from '../../src/engine/gen/coverage/measure.js';
import { changedCoverage } from '../../src/engine/gen/coverage/model.js';

afterAll(removeRepos);

const imports = (env: Record<string, string>, modules: string): boolean =>
  spawnSync('python3', ['-c', `import ${modules}`], { stdio: 'ignore', env: { ...process.env, ...env } }).status === 0;

// The python3 that has pytest and coverage.py: the one on PATH, or under pyenv the system one (Debian's
// python3-pytest and python3-coverage, which .ci/run installs).
const CANDIDATES: Record<string, string>[] = [{}, { PYENV_VERSION: 'system' }];
const PYTHON_ENV = CANDIDATES.find((env) => imports(env, 'pytest, coverage')) ?? null;
const command = (env: Record<string, string>, tail = ''): string =>
  `${Object.entries(env)
    .map(([k, v]) => `${k}=${v} `)
    .join('')}python3 -m pytest${tail}`;

const calc = [
  'def sign(n):',
  '    if n < 0:',
  '        return "negative"',
  '    return "positive"',
  '',
  '',
  'def unused():',
  '    return 42',
  '',
].join('\n');
const project = {
  'calc.py': calc,
  'helper.py':
    'import subprocess, sys\n\n\ndef child():\n    return subprocess.run([sys.executable, "-c", "import calc; print(calc.sign(-1))"], capture_output=True, text=True).stdout.strip()\n',
  'pytest.ini': '[pytest]\ntestpaths = tests\n',
  'conftest.py': '',
  'tests/test_calc.py':
    'import argparse\nfrom calc import sign\nfrom helper import child\n\n\ndef test_positive():\n    assert sign(1) == "positive"\n\n\ndef test_sees_own_argv():\n    args, _ = argparse.ArgumentParser().parse_known_args()\n    import sys\n    assert not any(a.startswith("--junitxml") for a in sys.argv), sys.argv\n\n\ndef test_child_process():\n    assert child() == "negative"\n',
};

describe('pytest coverage through coverage.py', () => {
  it.skipIf(!PYTHON_ENV)(
    'lines and branches of every Python process of the run, read from `coverage json`; the tests still see their own argv',
    async () => {
      const repo = makeRepo(null, project);
      const runner = await resolveRunner(repo, { testCmd: command(PYTHON_ENV!) });
      expect(runner.name).toBe('pytest');
      expect(coverageSupport(runner, repo)).toMatchObject({ ok: true, how: expect.stringMatching(/coverage\.py/) });
      const { result, coverage, missing } = await withCoverage(runner, repo, [], (r) =>
        r.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 }),
      );
      expect(missing).toBeUndefined();
      expect(result.result.tests.map((t) => `${t.name} ${t.status}`).sort()).toEqual([
        'test_child_process passed',
        'test_positive passed',
        'test_sees_own_argv passed',
      ]);
      // Test files and conftest are not source; helper.py and calc.py are.
      expect(Object.keys(coverage).sort()).toEqual(['calc.py', 'helper.py']);
      const c = changedCoverage(coverage, 'calc.py', [1, 2, 3, 4, 7, 8]);
      // Line 3 ran only in the child process the test started: coverage.py measured that one too.
      expect(c.uncovered).toEqual([8]);
      expect(c.totalBranches).toBe(2);
      expect(c.branches).toBe(100);
      expect(existsSync(join(repo, '.coverage'))).toBe(false);
      expect(process.env.COVERAGE_PROCESS_START).toBeUndefined();
    },
    120_000,
  );

  it.skipIf(!PYTHON_ENV)(
    'a subset run: only the named test, so the negative branch is missed',
    async () => {
      const repo = makeRepo(null, project);
      const runner = await resolveRunner(repo, { testCmd: command(PYTHON_ENV!) });
      const { coverage } = await withCoverage(runner, repo, [], async (r) =>
        r.runSubset!({ cwd: repo, timeoutMs: 120_000 }, { files: ['tests/test_calc.py'], names: ['test_positive'] }),
      );
      const c = changedCoverage(coverage, 'calc.py', [1, 2, 3, 4]);
      expect(c.uncovered).toEqual([3]);
      expect(c.coveredBranches).toBe(1);
      expect(c.totalBranches).toBe(2);
    },
    120_000,
  );

  // A python3 with pytest but no coverage.py (this machine's pyenv one) shows the on-screen reason.
  const BARE = CANDIDATES.find((env) => imports(env, 'pytest') && !imports(env, 'coverage')) ?? null;
  it.skipIf(!BARE)(
    'a Python without coverage.py: the reason names it and the fix, and the tests still run',
    async () => {
      const repo = makeRepo(null, project);
      const runner = await resolveRunner(repo, { testCmd: command(BARE!) });
      expect(coverageSupport(runner, repo)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/cannot import: install it \(pip install coverage/),
      });
      const { result, coverage, missing } = await withCoverage(runner, repo, [], (r) =>
        r.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 }),
      );
      expect(result.result.tests.filter((t) => t.status === 'passed')).toHaveLength(3);
      expect(coverage).toEqual({});
      expect(missing).toMatch(/^coverage\.py is not installed for \S*python/);
    },
    120_000,
  );
});
