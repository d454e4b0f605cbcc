import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseCommandLine } from '../../src/engine/runners/analyse-command.js';
import { detectRunner } from '../../src/engine/runners/detect.js';
import { readProject } from '../../src/engine/runners/project.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project folder holding exactly these files. */
function project(files: Record<string, string | object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-detect-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const pkg = (fields: object): { 'package.json': object } => ({ 'package.json': { name: 'p', ...fields } });

describe('detectRunner', () => {
  it.each<{ files: Record<string, string | object>; runner: string; from: string }>([
    { files: { 'vitest.config.ts': 'export default {}' }, runner: 'vitest', from: 'vitest.config.ts' },
    { files: { 'vitest.workspace.json': '[]' }, runner: 'vitest', from: 'vitest.workspace.json' },
    { files: { 'jest.config.js': 'module.exports = {}' }, runner: 'jest', from: 'jest.config.js' },
    { files: pkg({ jest: { testEnvironment: 'node' } }), runner: 'jest', from: '"jest" config in package.json' },
    { files: { '.mocharc.yml': 'spec: test' }, runner: 'mocha', from: '.mocharc.yml' },
    { files: pkg({ devDependencies: { vitest: '4' } }), runner: 'vitest', from: 'vitest in package.json dependencies' },
    { files: pkg({ devDependencies: { jest: '30' } }), runner: 'jest', from: 'jest in package.json dependencies' },
    { files: pkg({ devDependencies: { mocha: '11' } }), runner: 'mocha', from: 'mocha in package.json dependencies' },
    { files: pkg({ devDependencies: { tape: '5' } }), runner: 'tape', from: 'tape in package.json dependencies' },
    { files: pkg({ devDependencies: { ava: '6' } }), runner: 'ava', from: 'ava in package.json dependencies' },
    {
      files: pkg({ scripts: { test: 'node --test test/' } }),
      runner: 'node-test',
      from: 'scripts.test in package.json ("node --test test/")',
    },
    // The test script says what the project runs, whatever else it depends on.
    {
      // The unified/remark way: a plain script whose own module imports node:test, and one that imports it from
      // the file it loads.
      files: {
        ...pkg({ scripts: { test: 'node --conditions development test.js' } }),
        'test.js': "import assert from 'node:assert/strict'\nimport test from 'node:test'\n",
      },
      runner: 'node-test',
      from: 'scripts.test in package.json ("node --conditions development test.js")',
    },
    {
      files: {
        ...pkg({ scripts: { test: 'node test/index.js' } }),
        'test/index.js': "import './parse.js'\n",
        'test/parse.js': "const test = require('node:test')\n",
      },
      runner: 'node-test',
      from: 'scripts.test in package.json ("node test/index.js")',
    },
    {
      files: pkg({ scripts: { test: 'vitest run' }, devDependencies: { jest: '30', vitest: '4' } }),
      runner: 'vitest',
      from: 'scripts.test in package.json ("vitest run")',
    },
    {
      files: pkg({ scripts: { test: 'echo "Error: no test specified" && exit 1' }, devDependencies: { mocha: '11' } }),
      runner: 'mocha',
      from: 'mocha in package.json dependencies',
    },
    { files: { 'pytest.ini': '[pytest]\n' }, runner: 'pytest', from: 'pytest.ini' },
    { files: { '.pytest.ini': '[pytest]\n' }, runner: 'pytest', from: '.pytest.ini' },
    {
      files: { 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' },
      runner: 'pytest',
      from: '[tool.pytest] in pyproject.toml',
    },
    {
      files: { 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\n' },
      runner: 'pytest',
      from: '[tool:pytest] in setup.cfg',
    },
    { files: { 'tox.ini': '[tox]\n[pytest]\n' }, runner: 'pytest', from: '[pytest] in tox.ini' },
    { files: { 'conftest.py': '' }, runner: 'pytest', from: 'conftest.py' },
    // An installed package's source with its tests inside (pyflakes, toolz from Debian): no config, test_*.py files.
    {
      files: { '__init__.py': '', 'test/__init__.py': '', 'test/test_api.py': 'def test_x():\n    assert 1\n' },
      runner: 'pytest',
      from: "test/test_*.py (pytest's default collection)",
    },
    { files: { 'go.mod': 'module x\n' }, runner: 'go', from: 'go.mod' },
    { files: { 'Cargo.toml': '[package]\nname = "x"\n' }, runner: 'cargo', from: 'Cargo.toml' },
  ])('finds $runner from $from', ({ files, runner, from }) => {
    const found = detectRunner(readProject(project(files)));
    expect(found?.call.runner).toBe(runner);
    expect(found?.detectedFrom).toBe(from);
  });

  it('finds nothing in a folder without any sign of tests', () => {
    expect(detectRunner(readProject(project({ 'README.md': '# hi' })))).toBeNull();
  });
});

describe('analyseCommandLine', () => {
  const scripts = {
    test: "nyc --reporter=lcov --reporter text tape 'test/**/*.js'",
    'test:unit': 'cross-env NODE_ENV=test jest --ci',
    'test:node': 'c8 node --test test/',
    build: 'tsc -p .',
    'test:built': 'npm run build && mocha --recursive dist/test 2>&1',
    'test:pnpm': 'pnpm vitest run',
    'test:esm': 'node --experimental-vm-modules node_modules/jest/bin/jest.js',
    'test:piped': 'tape test/*.js | tap-spec',
    'test:or': 'jest || true',
    loop1: 'npm run loop2',
    loop2: 'npm run loop1',
  };
  const facts = readProject(project(pkg({ scripts, devDependencies: { tape: '5' } })));

  it.each([
    {
      line: 'npm test',
      runner: 'tape',
      launcher: ['tape'],
      args: ['test/**/*.js'],
      wrappers: [['nyc', '--reporter=lcov', '--reporter', 'text']],
    },
    {
      line: 'npm run test:unit -- --bail',
      runner: 'jest',
      launcher: ['jest'],
      args: ['--ci', '--bail'],
      env: { NODE_ENV: 'test' },
    },
    { line: 'yarn test:node', runner: 'node-test', launcher: ['node'], args: ['--test', 'test/'], wrappers: [['c8']] },
    {
      line: 'npm run test:built',
      runner: 'mocha',
      launcher: ['mocha'],
      args: ['--recursive', 'dist/test'],
      setup: [['npm', 'run', 'build']],
    },
    { line: 'pnpm run test:pnpm', runner: 'vitest', launcher: ['vitest'], args: ['run'] },
    {
      line: 'npm run test:esm',
      runner: 'jest',
      launcher: ['node', '--experimental-vm-modules', 'node_modules/jest/bin/jest.js'],
      args: [],
    },
    { line: 'npm run test:piped', runner: 'tape', launcher: ['tape'], args: ['test/*.js'] },
    { line: 'npm run test:or', runner: 'jest', launcher: ['jest'], args: [] },
    { line: 'npx --no-install jest --coverage', runner: 'jest', launcher: ['jest'], args: ['--coverage'] },
    {
      line: 'X=1 Y="a b" vitest run src',
      runner: 'vitest',
      launcher: ['vitest'],
      args: ['run', 'src'],
      env: { X: '1', Y: 'a b' },
    },
    {
      line: 'python3 -m pytest -x tests',
      runner: 'pytest',
      launcher: ['python3', '-m', 'pytest'],
      args: ['-x', 'tests'],
    },
    {
      line: '/usr/bin/python3 -m pytest -q',
      runner: 'pytest',
      launcher: ['/usr/bin/python3', '-m', 'pytest'],
      args: ['-q'],
    },
    { line: 'python3.12 -m pytest', runner: 'pytest', launcher: ['python3.12', '-m', 'pytest'], args: [] },
    { line: 'go test -race ./...', runner: 'go', launcher: ['go', 'test'], args: ['-race', './...'] },
    { line: 'cargo test --workspace', runner: 'cargo', launcher: ['cargo', 'test'], args: ['--workspace'] },
    { line: 'tsx --test src/', runner: 'node-test', launcher: ['tsx'], args: ['--test', 'src/'] },
    // A Makefile recipe's way: the project's own bin, which fixcycle runs from node_modules/.bin anyway.
    {
      line: './node_modules/.bin/mocha --reporter dot test/*.js',
      runner: 'mocha',
      launcher: ['mocha'],
      args: ['--reporter', 'dot', 'test/*.js'],
    },
  ])('follows "$line" to $runner', ({ line, runner, launcher, args, wrappers = [], env = {}, setup = [] }) => {
    const found = analyseCommandLine(line, facts);
    expect(found).toMatchObject({ runner, launcher, args, wrappers, env, setup });
  });

  it('runs npm pre-scripts first', () => {
    const withPre = readProject(project(pkg({ scripts: { pretest: 'tsc', test: 'mocha' } })));
    expect(analyseCommandLine('npm test', withPre)).toMatchObject({ runner: 'mocha', setup: [['tsc']] });
  });

  it('records the path it followed for doctor', () => {
    const found = analyseCommandLine('npm test', facts);
    expect('trail' in found && found.trail.join(' | ')).toBe(
      `npm test -> scripts.test: "${scripts.test}" | nyc --reporter=lcov --reporter text tape test/**/*.js -> tape`,
    );
  });

  it.each([
    // make runs the tests itself; fixcycle reads mocha, jest or vitest from under it, and this project has none.
    {
      line: 'make test',
      why: /"make test" runs the tests through make, and this project has none of the runners fixcycle reads from under it \(mocha, jest, vitest\)/,
    },
    { line: 'npm run nothing', why: /script "nothing", which package.json does not have/ },
    { line: 'npm run loop1', why: /loop/ },
    { line: 'node scripts/run-tests.js', why: /runs a script/ },
    { line: 'echo start & jest', why: /background/ },
  ])('says why "$line" leads to no runner it knows', ({ line, why }) => {
    const found = analyseCommandLine(line, facts);
    expect('unknown' in found && found.unknown).toMatch(why);
  });
});
