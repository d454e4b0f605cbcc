// A Python project's runner is `python3 -m pytest` where that Python has pytest: fixcycle asks it by starting it,
// which through a pyenv shim takes most of a second. The question must not stop the run's other work meanwhile
// (git's snapshot of the tree), as a synchronous spawn did.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { missingTool } from './helpers/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'fixcycle-pytest-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it.skipIf(missingTool(['python3', ['-c', '']]))(
  "finds a Python project's runner while the event loop goes on, the same the next time",
  async () => {
    writeFileSync(join(dir, 'pytest.ini'), '[pytest]\n');
    let turned = false;
    const found = resolveRunner(dir, {});
    setImmediate(() => (turned = true));
    const runner = await found;
    expect(turned).toBe(true);
    const again = await resolveRunner(dir, {});
    expect(again.describe().full.slice(0, 3)).toEqual(runner.describe().full.slice(0, 3));
    expect(runner.name).toBe('pytest');
  },
);
