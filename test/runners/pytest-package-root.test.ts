// A Python project whose root folder is itself a package (a distribution's installed copy checked out as itself,
// hyperlink's `hypothesis.py`) holds modules named like libraries. With no test command given, fixcycle must not
// start pytest as `python -m pytest`, which puts that folder first on sys.path: the tests' `import colorsys` would
// get the project's module rather than the library, and a `try: import ...` around a test class would skip it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { counts, missingTool } from './helpers/fixtures.js';

const parent = mkdtempSync(join(tmpdir(), 'fixcycle-pytest-package-root-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const missing = missingTool(['python3', ['-c', 'import pytest']]) ?? missingTool(['pytest', ['--version']]);

it.skipIf(missing)(
  "runs a package root's tests with the library its modules are named after, not the project's module",
  async () => {
    const dir = join(parent, 'shades');
    mkdirSync(join(dir, 'test'), { recursive: true });
    writeFileSync(join(dir, '__init__.py'), '');
    writeFileSync(join(dir, 'pytest.ini'), '[pytest]\n');
    // The project's own module of strategies, named like the standard library's colour conversions.
    writeFileSync(join(dir, 'colorsys.py'), 'def palette():\n    return ["red"]\n');
    writeFileSync(join(dir, 'test', '__init__.py'), '');
    writeFileSync(
      join(dir, 'test', 'test_colors.py'),
      [
        'import colorsys',
        'from shades.colorsys import palette',
        '',
        'def test_library():',
        '    assert colorsys.rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)',
        '',
        'def test_own_module():',
        '    assert palette() == ["red"]',
        '',
      ].join('\n'),
    );
    const runner = await resolveRunner(dir, {});
    const run = await runner.run({ cwd: dir, scope: 'full', changedFiles: [], lastFailures: [], timeoutMs: 60_000 });
    expect(counts(run.result)).toEqual({ passed: 2, failed: 0, skipped: 0, errors: 0 });
  },
);
