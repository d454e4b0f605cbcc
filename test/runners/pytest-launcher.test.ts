// How fixcycle starts a `pytest` script so the tests see the user's own sys.argv: with the Python the script names,
// and back to the script itself where the python3 on PATH has no pytest (a pyenv or asdf shim, a pipx install).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Invocation } from '../../src/engine/runners/invocation.js';
import { hideFromPytest } from '../../src/engine/runners/pytest-launcher.js';
import { missingTool } from './helpers/fixtures.js';

const dirs: string[] = [];
const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-pytest-launcher-'));
  dirs.push(dir);
  return dir;
}

/** A folder first on PATH holding an executable `pytest` with this text. */
function pytestScript(text: string): { bin: string; script: string } {
  const bin = scratch();
  const script = join(bin, 'pytest');
  writeFileSync(script, text);
  chmodSync(script, 0o755);
  process.env.PATH = `${bin}:${PATH}`;
  return { bin, script };
}

const invocation = (reportDir: string): Invocation => ({
  argv: ['pytest', '-q', `--junitxml=${join(reportDir, 'pytest.xml')}`],
  env: {},
  setup: [],
  report: null,
});

function launch(reportDir: string): Invocation {
  const inv = invocation(reportDir);
  return hideFromPytest(inv, { launcher: ['pytest'], args: ['-q'] }, 0, inv.argv.slice(1), reportDir);
}

describe("fixcycle's pytest launcher", () => {
  it.each([
    ['#!/opt/venv/bin/python3.12\n', '/opt/venv/bin/python3.12'],
    ['#!/usr/bin/env python3\n', 'python3'],
    ['#!/usr/bin/python\n# -*- coding: utf-8 -*-\n', '/usr/bin/python'],
  ])('starts pytest with the Python the script names (%j), asking no other', (line, python) => {
    pytestScript(`${line}import sys\nfrom pytest import console_main\nsys.exit(console_main())\n`);
    const dir = scratch();
    expect(launch(dir).argv).toEqual([python, join(dir, 'fixcycle-launch.py')]);
  });

  const skip = missingTool(['python3', ['-c', '']]);
  it.skipIf(skip)(
    "runs the script itself, with fixcycle's options, where the python3 on PATH cannot import pytest",
    () => {
      // A shim, as pyenv's: a shell script starting whichever Python it picks.
      const { script } = pytestScript(`#!/bin/sh\nprintf '%s\\n' "$@" > "$(dirname "$0")/args"\n`);
      const dir = scratch();
      const launched = launch(dir);
      expect(launched.argv).toEqual(['python3', join(dir, 'fixcycle-launch.py')]);
      for (const file of launched.prepare ?? []) writeFileSync(file.path, file.content);
      // This python3 finds a pytest that fails to import, as one without pytest does.
      const shadow = join(scratch(), 'pytest');
      mkdirSync(shadow);
      writeFileSync(join(shadow, '__init__.py'), 'raise ImportError("no pytest here")\n');
      const run = spawnSync(launched.argv[0]!, launched.argv.slice(1), {
        env: { ...process.env, PYTHONPATH: join(shadow, '..') },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      expect(
        readFileSync(join(script, '..', 'args'), 'utf8')
          .trim()
          .split('\n'),
      ).toEqual(['-q', `--junitxml=${join(dir, 'pytest.xml')}`]);
    },
  );
});
