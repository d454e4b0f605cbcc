import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/engine/runners/project.js';
import {
  agentCmd,
  git,
  makeRepo,
  readJson,
  removeRepos,
  ROOT,
  runCli,
  scenario,
  sessionDir,
  state,
} from '../helpers/repo.js';
import { missingTool } from '../runners/helpers/fixtures.js';

afterAll(removeRepos);

const headless = ['run', '--headless'];
const plan = (cause: string, point: string, affected: string[] = []) => ({
  plan: {
    root_causes: [cause],
    modification_points: [point],
    affected_tests: affected,
    confidence_score: 0.9,
    approach: cause,
  },
});

/** A repository whose node_modules is fixcycle's own (the real jest, mocha, tape, commander). */
function jsRepo(files: Record<string, string>): string {
  const repo = makeRepo(null, { '.gitignore': 'node_modules\n', ...files });
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  return repo;
}

const NODE_TESTS = {
  'src/math.js': 'exports.add = (a, b) => a + b;\n',
  'test/math.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math.js');\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\ntest('adds zero', () => assert.strictEqual(add(2, 0), 2));\n",
};

describe('the test command runs as the user runs it', { timeout: 180_000 }, () => {
  it('runs every part of `a && b`: a failing check after the tests is a failure the agent sees and fixes', async () => {
    // Like `jest && tsc`: the tests pass, the type check after them does not.
    const repo = jsRepo({
      ...NODE_TESTS,
      'package.json': JSON.stringify({
        name: 'p',
        private: true,
        scripts: { lint: 'node -e 0', test: 'npm run lint && node --test && node scripts/check-api.js' },
      }),
      'scripts/check-api.js':
        "const { add } = require('../src/math.js');\nif (add.length !== 2) { console.error('API check: add() must declare 2 parameters, it declares ' + add.length); process.exit(2); }\n",
      'src/math.js': 'exports.add = (...args) => args[0] + args[1];\n',
    });
    const agent = scenario({
      analyze: [plan('add() declares rest parameters, so the API check fails', 'src/math.js:add:1')],
      fix: [
        {
          edits: [
            {
              file: 'src/math.js',
              search: 'exports.add = (...args) => args[0] + args[1];',
              replace: 'exports.add = (a, b) => a + b;',
            },
          ],
        },
      ],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/after the tests: `node scripts\/check-api\.js` failed \(exit 2/);
    expect(agent.calls()).toEqual(['agent analyze 1 conservative', 'agent fix 1 conservative']);
    expect(agent.prompt('agent', 'analyze', 1)).toMatch(/API check: add\(\) must declare 2 parameters, it declares 0/);
    expect(run.stdout).toMatch(/after the tests: `node scripts\/check-api\.js` passed/);
    // The linter runs with the full suites (the first run and the final validation), not with the re-test.
    expect(run.stdout.match(/check before the tests: `npm run lint` passed/g)).toHaveLength(2);
    expect(run.stdout).not.toMatch(/re-test: check before the tests/);
    expect(state(repo).status).toBe('completed');
  });

  it("runs npm's pretest and posttest as npm test does: a failing posttest is a failure the agent sees and fixes", async () => {
    const repo = jsRepo({
      ...NODE_TESTS,
      'package.json': JSON.stringify({
        name: 'p',
        private: true,
        scripts: {
          lint: 'node -e 0',
          pretest: 'npm run lint',
          test: 'node --test',
          posttest: 'node scripts/check-api.js',
        },
      }),
      'scripts/check-api.js':
        "const { add } = require('../src/math.js');\nif (add.length !== 2) { console.error('API check: add() must declare 2 parameters, it declares ' + add.length); process.exit(2); }\n",
      'src/math.js': 'exports.add = (...args) => args[0] + args[1];\n',
    });
    const agent = scenario({
      analyze: [plan('add() declares rest parameters, so the API check fails', 'src/math.js:add:1')],
      fix: [
        {
          edits: [
            {
              file: 'src/math.js',
              search: 'exports.add = (...args) => args[0] + args[1];',
              replace: 'exports.add = (a, b) => a + b;',
            },
          ],
        },
      ],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/after the tests: `node scripts\/check-api\.js` failed \(exit 2/);
    expect(agent.prompt('agent', 'analyze', 1)).toMatch(/API check: add\(\) must declare 2 parameters, it declares 0/);
    expect(run.stdout).toMatch(/after the tests: `node scripts\/check-api\.js` passed/);
    // pretest's linter runs with the full suites, shown in the log, not with the re-test.
    expect(run.stdout.match(/check before the tests: `npm run lint` passed/g)).toHaveLength(2);
    expect(run.stdout).not.toMatch(/re-test: check before the tests/);
    expect(state(repo).status).toBe('completed');
  });

  it("expands a glob when its part starts, as the shell does: uuid's `node --test dist-node/test/*.js` after a pretest build", async () => {
    // uuid 14: `pretest` builds dist-node (ignored by git), `test` is `node --test --enable-source-maps dist-node/test/*.js`.
    const repo = jsRepo({
      '.gitignore': 'node_modules\ndist-node\n',
      'package.json': JSON.stringify({
        name: 'p',
        private: true,
        scripts: { pretest: 'node scripts/build.js', test: 'node --test --enable-source-maps dist-node/test/*.js' },
      }),
      'scripts/build.js':
        "const fs = require('node:fs');\nfs.rmSync('dist-node', { recursive: true, force: true });\nfs.mkdirSync('dist-node/test', { recursive: true });\nfs.cpSync('src', 'dist-node', { recursive: true });\n",
      'src/math.js': 'exports.add = (a, b) => a - b;\n',
      'src/test/math.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../math.js');\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\ntest('adds zero', () => assert.strictEqual(add(2, 0), 2));\n",
      'src/test/other.test.js': "require('node:test')('other', () => {});\n",
    });
    const agent = scenario({
      analyze: [plan('add() subtracts', 'src/math.js:add:1')],
      fix: [{ edits: [{ file: 'src/math.js', search: 'a - b', replace: 'a + b' }] }],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\[test\] done: pass 66\.67% \(2\/3\)/);
    expect(run.stdout).not.toMatch(/Could not find|no test ran/);
    const log = readFileSync(join(sessionDir(repo), '.process/test-output.log'), 'utf8');
    expect(log).toMatch(
      /\$ node --test --enable-source-maps --test-reporter=spec [^\n]* dist-node\/test\/math\.test\.js dist-node\/test\/other\.test\.js\n/,
    );
    expect(state(repo).status).toBe('completed');
  });

  it('a missing tool is a failed test step: no agent is called and nothing is committed', async () => {
    if (findOnPath('pnpm')) return; // the case needs pnpm to be missing, as on the machine that found it
    const repo = jsRepo({
      ...NODE_TESTS,
      'src/math.js': 'exports.add = (a, b) => a - b;\n',
      'package.json': JSON.stringify({
        name: 'p',
        private: true,
        scripts: { lint: 'node -e 0', test: 'pnpm lint && node --test' },
      }),
    });
    const agent = scenario({
      analyze: [plan('add() subtracts', 'src/math.js:add:1')],
      fix: [{ edits: [{ file: 'src/math.js', search: 'a - b', replace: 'a + b' }] }],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/\[test\] failed: stopped: a part of the test command cannot run here/);
    expect(run.stdout).toMatch(
      /\[done\] failure — no test ran: the test command's part `pnpm lint` \(a check run before the tests\) cannot run on this machine: it failed without a failing test and needs a program that is not here/,
    );
    expect(agent.calls()).toEqual([]);
    expect(git(repo, 'log', '--format=%s')).toBe('initial');
  });

  it("keeps fixcycle's reporter flags and NO_COLOR away from a commander CLI's jest tests", async () => {
    const repo = jsRepo({
      'package.json': JSON.stringify({ name: 'p', private: true, scripts: { test: 'jest' } }),
      'src/greet.js': "exports.greet = (name) => 'hello ' + name.toUpperCase();\n",
      'test/cli.test.js': [
        "const { Command } = require('commander');",
        "const { greet } = require('../src/greet.js');",
        "test('parses the command line it was started with', () => {",
        '  const program = new Command().exitOverride().option("--loud");',
        '  program.parse();',
        '  expect(program.args).toEqual([]);',
        '});',
        "test('colour is left to the user', () => expect(process.env.NO_COLOR).toBeUndefined());",
        "test('greets', () => expect(greet('ada')).toBe('hello ada'));",
        '',
      ].join('\n'),
    });
    const agent = scenario({
      analyze: [plan('greet() upper-cases the name', 'src/greet.js:greet:1', ['greets'])],
      fix: [{ edits: [{ file: 'src/greet.js', search: 'name.toUpperCase()', replace: 'name' }] }],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)], { timeoutMs: 180_000 });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(state(repo).initial_pass_rate).toBeCloseTo(66.67, 1);
    const failures = readJson(join(sessionDir(repo), '.process/iteration-1-failures.json'));
    expect(JSON.stringify(failures)).not.toMatch(/unknown option|NO_COLOR/);
    expect(agent.calls()).toEqual(['agent analyze 1 conservative', 'agent fix 1 conservative']);
  });
});

describe('pytest', { timeout: 180_000 }, () => {
  const skip = missingTool(['python3', ['-m', 'pytest', '--version']]);
  it.skipIf(skip)("keeps fixcycle's --junitxml out of sys.argv, where a test's argparse reads it", async () => {
    const repo = makeRepo(null, {
      'cli.py':
        'import argparse\n\n\ndef parse():\n    parser = argparse.ArgumentParser()\n    parser.add_argument("--loud", action="store_true")\n    return parser.parse_args()\n\n\ndef shout(text):\n    return text.lower()\n',
      'tests/test_cli.py':
        'from cli import parse, shout\n\n\ndef test_parses_its_own_command_line():\n    assert parse().loud is False\n\n\ndef test_shouts():\n    assert shout("hi") == "HI"\n',
      'conftest.py': '',
      'pytest.ini': '[pytest]\naddopts = -p no:cacheprovider\n',
    });
    const agent = scenario({
      analyze: [plan('shout() lower-cases', 'cli.py:shout:11', ['test_shouts'])],
      fix: [{ edits: [{ file: 'cli.py', search: 'text.lower()', replace: 'text.upper()' }] }],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\[test\] done: pass 50% \(1\/2\)/);
    expect(agent.calls()).toEqual(['agent analyze 1 conservative', 'agent fix 1 conservative']);
  });
});

describe('doctests', { timeout: 180_000 }, () => {
  const skip = missingTool(['python3', ['-m', 'pytest', '--version']]);
  it.skipIf(skip)(
    'accepts the fix to a module that holds doctests, and rejects one that rewrites what a doctest expects',
    async () => {
      const module = [
        'def add(a, b):',
        '    """Add two numbers.',
        '',
        '    >>> add(2, 3)',
        '    5',
        '    """',
        '    return a - b',
        '',
      ].join('\n');
      const repo = makeRepo(null, {
        'mathutil.py': module,
        'pytest.ini': '[pytest]\naddopts = --doctest-modules -p no:cacheprovider\n',
      });
      const agent = scenario({
        analyze: [
          plan('add() subtracts', 'mathutil.py:add:7', ['mathutil.py::mathutil.add']),
          plan('add() subtracts', 'mathutil.py:add:7', ['mathutil.py::mathutil.add']),
        ],
        fix: [
          { edits: [{ file: 'mathutil.py', search: '    5\n', replace: '    -1\n' }] },
          { edits: [{ file: 'mathutil.py', search: 'return a - b', replace: 'return a + b' }] },
        ],
      });
      const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/fix rejected and reverted: changes the doctest examples in mathutil\.py/);
      expect(run.stdout).not.toMatch(/edits test file mathutil\.py/);
      expect(state(repo).iterations.map((i: { result: string }) => i.result)).toEqual(['rejected', 'improved']);
      expect(git(repo, 'show', 'HEAD:mathutil.py')).toContain('return a + b');
    },
  );
});

describe('what the counts are over, and which run drives the loop', { timeout: 180_000 }, () => {
  it('confirms with the full suite when the affected re-test still fails a targeted test, and marks it order-dependent', async () => {
    // Like @sinonjs/commons: b.test.js passes only when a.test.js ran first in the same mocha process.
    const repo = jsRepo({
      'package.json': JSON.stringify({ name: 'p', private: true, scripts: { test: 'mocha' } }),
      'src/ids.js': 'let next = 0;\nexports.nextId = () => ++next;\nexports.lastId = () => next;\n',
      'src/calc.js': 'exports.add = (a, b) => a - b;\n',
      'test/a.test.js':
        "const assert = require('node:assert');\nconst { nextId } = require('../src/ids.js');\nit('hands out ids', () => assert.ok(nextId() > 0));\n",
      'test/b.test.js':
        "const assert = require('node:assert');\nconst { lastId } = require('../src/ids.js');\nconst { add } = require('../src/calc.js');\nit('adds after ids were handed out', () => { assert.ok(lastId() > 0, 'no id handed out yet'); assert.strictEqual(add(2, 3), 5); });\n",
    });
    const agent = scenario({
      analyze: [plan('add() subtracts', 'src/calc.js:add:1', ['adds after ids were handed out'])],
      fix: [{ edits: [{ file: 'src/calc.js', search: 'a - b', replace: 'a + b' }] }],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/confirming with the full suite before asking an agent again/);
    expect(run.stdout).toMatch(/order-dependent test\(s\): .*adds after ids were handed out/);
    expect(agent.calls()).toEqual(['agent analyze 1 conservative', 'agent fix 1 conservative']);
    const s = state(repo);
    expect(s.order_dependent_tests).toHaveLength(1);
    expect(s.iterations.map((i: { pass_rate: number; result: string }) => [i.pass_rate, i.result])).toEqual([
      [100, 'improved'],
    ]);
  });

  it('counts the tests that only run once a crash is fixed, so a failure among them is never 100%', async () => {
    // tape stops at the uncaught error: `multiplies` is first reported after add() is fixed, and it fails.
    const repo = jsRepo({
      'package.json': JSON.stringify({ name: 'p', private: true, scripts: { test: 'tape test/*.js' } }),
      'src/calc.js': 'exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b + 1;\n',
      'test/calc.js': [
        "const test = require('tape');",
        "const { add, mul } = require('../src/calc.js');",
        "test('adds', (t) => { t.equal(add(2, 3), 5); t.end(); });",
        "test('adds in a callback', (t) => { setTimeout(() => { if (add(1, 1) !== 2) throw new Error('add is broken'); t.pass('callback ran'); t.end(); }, 0); });",
        "test('multiplies', (t) => { t.equal(mul(2, 3), 6); t.end(); });",
        '',
      ].join('\n'),
    });
    const agent = scenario({
      analyze: [plan('add() subtracts', 'src/calc.js:add:1'), plan('mul() adds one', 'src/calc.js:mul:2')],
      fix: [
        { edits: [{ file: 'src/calc.js', search: 'a - b', replace: 'a + b' }] },
        { edits: [{ file: 'src/calc.js', search: 'a * b + 1', replace: 'a * b' }] },
      ],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const s = state(repo);
    expect(s.iterations).toHaveLength(2);
    // After the first fix `multiplies` ran for the first time and failed: it counts, so the rate is not 100%.
    expect(s.iterations[0].pass_rate).toBeLessThan(100);
    expect(run.stdout).toMatch(/reported for the first time now count towards the pass rate/);
    expect(run.stdout).not.toMatch(/pass 100% \(\d+\/\d+[^)\n]*\)[^\n]*\n[^\n]*\[iteration 2\]/);
    // tape reports assertions, not tests: the counts shown say so.
    expect(run.stdout).toMatch(/\[retest\] done: pass [\d.]+% \(\d+\/\d+ assertions\)/);
    expect(s.iterations[1].pass_rate).toBe(100);
  });
});
