import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSummaryLine } from '../../src/engine/report/index.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { counts, missingTool } from './helpers/fixtures.js';

// Python projects that test through tox or setup.py and have no pytest config (toolz, sortedcontainers):
// found, and run so that their tests import the package from the project root, as tox's install does.

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-python-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const PACKAGE = (broken: boolean): string =>
  `def add(a, b):\n    return a ${broken ? '-' : '+'} b\n\n\ndef upper(s):\n    return s.upper()\n`;
// A test folder without __init__.py: plain `pytest` puts only that folder on sys.path, and `import calc` fails.
const TESTS = `from calc import add, upper\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_upper():\n    assert upper("a") == "A"\n`;

const missing = missingTool(['python3', ['-m', 'pytest', '--version']]);

describe.each<{ signal: string; files: Record<string, string>; from: string }>([
  {
    signal: 'tox.ini',
    files: { 'tox.ini': '[tox]\nenvlist = py3\n\n[testenv]\ndeps = pytest\ncommands = py.test {posargs}\n' },
    from: 'tox.ini (pytest runs its tests)',
  },
  {
    signal: 'setup.py',
    files: { 'setup.py': 'from setuptools import setup\nsetup(name="calc", py_modules=["calc"])\n' },
    from: 'setup.py (pytest runs its tests)',
  },
])('a project with only $signal', ({ files, from }) => {
  it.skipIf(missing !== null)(
    "is tested with pytest, counts equal to pytest's own, and a clean run after the fix",
    async () => {
      const dir = project({ ...files, 'calc/__init__.py': PACKAGE(true), 'bench/test_calc.py': TESTS });
      const runner = await resolveRunner(dir, {});
      expect(runner.name).toBe('pytest');
      expect(runner.detectedFrom).toBe(from);
      expect(runner.describe().full.slice(1, 3)).toEqual(['-m', 'pytest']);

      const logFile = join(dir, 'broken.log');
      writeFileSync(logFile, '');
      const broken = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000, logFile });
      expect(broken.result.errors).toEqual([]);
      expect(counts(broken.result)).toEqual({ passed: 1, failed: 1, skipped: 0, errors: 0 });
      expect(parseSummaryLine(readFileSync(logFile, 'utf8'))).toMatchObject({
        runner: 'pytest',
        passed: 1,
        failed: 1,
        errors: 0,
      });
      expect(broken.result.tests.find((test) => test.status === 'failed')?.message).toMatch(/assert -1 == 5/);

      writeFileSync(join(dir, 'calc/__init__.py'), PACKAGE(false));
      const fixedLog = join(dir, 'fixed.log');
      writeFileSync(fixedLog, '');
      const fixed = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000, logFile: fixedLog });
      expect(fixed.exitCode).toBe(0);
      expect(counts(fixed.result)).toEqual({ passed: 2, failed: 0, skipped: 0, errors: 0 });
      expect(parseSummaryLine(readFileSync(fixedLog, 'utf8'))).toMatchObject({
        runner: 'pytest',
        passed: 2,
        failed: 0,
      });
    },
    180_000,
  );
});
