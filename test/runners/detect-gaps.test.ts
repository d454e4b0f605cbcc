import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDoctorCommand } from '../../src/commands/doctor.js';
import { detectRunner, explainNoRunner } from '../../src/engine/runners/detect.js';
import { readProject } from '../../src/engine/runners/project.js';
import { RUNNER_NAMES } from '../../src/engine/runners/names.js';
import { CLI } from '../helpers/repo.js';
import { copyFixture, removeFixtures } from './helpers/fixtures.js';

const dirs: string[] = [];
afterAll(() => {
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  removeFixtures();
});

function project(files: Record<string, string | object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-detect-gaps-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const pkg = (fields: object): { 'package.json': object } => ({ 'package.json': { name: 'p', ...fields } });

describe('runners found in published projects that fixcycle missed', () => {
  it.each<{ files: Record<string, string | object>; runner: string; from: string; args?: string[] }>([
    // node-tap 12 and 16 projects: `tap test/*.js`, `tap --100 test/*.js`, `nyc tap ...`.
    {
      files: pkg({ scripts: { test: 'tap test/*.js' }, devDependencies: { tap: '^12.7.0' } }),
      runner: 'tap',
      from: 'scripts.test in package.json ("tap test/*.js")',
      args: ['test/*.js'],
    },
    {
      files: pkg({ scripts: { test: 'tap --100 -j4 test/*.js' } }),
      runner: 'tap',
      from: 'scripts.test in package.json ("tap --100 -j4 test/*.js")',
      args: ['--100', '-j4', 'test/*.js'],
    },
    { files: pkg({ devDependencies: { tap: '^16.3.0' } }), runner: 'tap', from: 'tap in package.json dependencies' },
    // uvu projects: `uvu -r esm tests`, `c8 uvu tests`.
    {
      files: pkg({ scripts: { test: 'uvu -r esm tests' } }),
      runner: 'uvu',
      from: 'scripts.test in package.json ("uvu -r esm tests")',
      args: ['-r', 'esm', 'tests'],
    },
    {
      files: pkg({ scripts: { test: 'c8 uvu tests' } }),
      runner: 'uvu',
      from: 'scripts.test in package.json ("c8 uvu tests")',
      args: ['tests'],
    },
    { files: pkg({ devDependencies: { uvu: '^0.5.6' } }), runner: 'uvu', from: 'uvu in package.json dependencies' },
    // Python projects that test through tox, or only have a setup.py.
    {
      files: {
        'tox.ini': '[tox]\nenvlist = py3\n\n[testenv]\ncommands = pytest {posargs}\n',
        'setup.py': 'from setuptools import setup\nsetup()\n',
      },
      runner: 'pytest',
      from: 'tox.ini (pytest runs its tests)',
    },
    {
      files: {
        'setup.py': 'from setuptools import setup\nsetup(name="x", test_suite="tests")\n',
        'tests/test_x.py': '',
      },
      runner: 'pytest',
      from: 'setup.py (pytest runs its tests)',
    },
  ])('finds $runner from $from', ({ files, runner, from, args }) => {
    const found = detectRunner(readProject(project(files)));
    expect(found?.call.runner).toBe(runner);
    expect(found?.detectedFrom).toBe(from);
    if (args) expect(found?.call.args).toEqual(args);
  });
});

describe('the message when no runner is found', () => {
  it('names the test script it could not follow instead of saying there is none', () => {
    const message = explainNoRunner(readProject(project(pkg({ scripts: { test: 'make check' } }))));
    expect(message).toMatch(
      /^no test runner found in \S+: scripts\.test in package\.json \("make check"\) does not lead to one fixcycle knows \("make check" runs the tests through make, and this project has none of the runners fixcycle reads from under it/,
    );
    expect(message).toMatch(/pass --test-cmd "<command>" or --runner NAME$/);
    expect(message).not.toContain('no test script');
  });

  it('says "no test script" only when there is none, and names npm\'s placeholder', () => {
    expect(explainNoRunner(readProject(project(pkg({}))))).toContain('(no test script,');
    expect(
      explainNoRunner(readProject(project(pkg({ scripts: { test: 'echo "Error: no test specified" && exit 1' } })))),
    ).toContain("(only npm's placeholder test script,");
    expect(explainNoRunner(readProject(project({ 'README.md': '' })))).toContain('(no package.json,');
  });
});

describe('fixcycle doctor and run --help', () => {
  it('says where counts come from once, for a plain command', async () => {
    const dir = copyFixture('node-test-passing');
    writeFileSync(join(dir, 'check.sh'), 'echo "3 passed, 0 failed"\n');
    const out: string[] = [];
    const code = await runDoctorCommand(
      dir,
      { testCmd: 'sh check.sh' },
      { stdout: (text) => out.push(text), stderr: (text) => out.push(`ERR ${text}`) },
    );
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain(
      'counts from:   the output: a TAP stream if it prints one, else the summary line, else the exit code',
    );
    expect(text).not.toMatch(/the output: the output/);
  });

  it('lists every runner --runner takes, ava, tap and uvu included', () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with npm run build`);
    const help = spawnSync(process.execPath, [CLI, 'run', '--help'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    const listed = /--runner <name> force a test runner \(([^)]*)\)/.exec(help)?.[1]?.split(', ');
    expect(listed).toEqual(RUNNER_NAMES.filter((name) => name !== 'command'));
    expect(listed).toEqual(expect.arrayContaining(['ava', 'tap', 'uvu']));
  });
});
