import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCmd, git, makeRepo, removeRepos, ROOT, runCli, scenario, sessionDir, state } from '../helpers/repo.js';

afterAll(removeRepos);

// In place: a session that stops here ends as a failure, and these tests read its fix commits on the user's branch
// (a failed session run in its own worktree keeps them on its branch).
const headless = ['run', '--headless', '--in-place'];
const plan = {
  plan: {
    root_causes: ['add() subtracts'],
    modification_points: ['src/math.js:add:1'],
    affected_tests: [],
    confidence_score: 0.9,
    approach: 'add',
  },
};
const fixAdd = { edits: [{ file: 'src/math.js', search: 'a - b', replace: 'a + b' }] };

/** A node:test project whose `npm test` runs a part that cannot run here, as @sinonjs/fake-timers' does. */
function project(scripts: Record<string, string>, add = 'a - b', extra: Record<string, string> = {}): string {
  const repo = makeRepo(null, {
    '.gitignore': 'node_modules\n',
    'package.json': JSON.stringify({ name: 'p', private: true, scripts }),
    'src/math.js': `exports.add = (a, b) => ${add};\n`,
    'test/math.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math.js');\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\ntest('adds zero', () => assert.strictEqual(add(2, 0), 2));\n",
    ...extra,
  });
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  return repo;
}

// fake-timers: `npm run test-node && npm run test-headless`, the headless part a browser run (mochify).
const FAKE_TIMERS = {
  test: 'npm run test-node && npm run test-headless',
  'test-node': 'node --test',
  'test-headless': 'mochify-not-installed --driver puppeteer',
};

describe('a part of the test command that cannot run here', { timeout: 180_000 }, () => {
  it("in a broken project the failures of the parts that run are the agent's work: the part is left out of the later runs, named in the log, the state and the summary, and the end says both", async () => {
    const repo = project(FAKE_TIMERS);
    const agent = scenario({ analyze: [plan], fix: [fixAdd] });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(agent.calls().map((c) => c.split(' ')[1])).toEqual(['analyze', 'fix']);
    expect(agent.prompt('agent', 'analyze', 1)).toMatch(/adds/);
    expect(agent.prompt('agent', 'analyze', 1)).not.toMatch(/test-headless|mochify/);
    expect(git(repo, 'log', '--format=%s').split('\n')[0]).toMatch(/^test-cycle: iteration 1 /);
    // Said once, with its own words, when it was found.
    expect(run.stdout).toMatch(
      /left out of the later runs: the test command's part `npm run test-headless` \(run after the tests\) cannot run on this machine: it failed without a failing test and needs a program that is not here/,
    );
    expect(run.stdout).toMatch(/its own words:\n {2}sh: \d+: mochify-not-installed: not found/);
    expect(run.stdout).toMatch(
      /\[done\] failure — converged on what runs here \(every test passes\); not run: the test command's part `npm run test-headless` \(it needs a program that is not here\): install what it needs and run the tests again, or leave it out with "skipParts": \["test-headless"\] in fixcycle\.config\.json/,
    );
    const s = state(repo);
    expect(s).toMatchObject({
      status: 'failed',
      stopped_by: 'part_not_run',
      parts_not_run: [{ name: 'test-headless', command: ['npm', 'run', 'test-headless'], needs: 'a program' }],
    });
    expect(s.iterations[0]).toMatchObject({ result: 'improved', pass_rate: 100 });
    // The last full run ran the node:test part only.
    const output = readFileSync(join(sessionDir(repo), '.process/test-output.log'), 'utf8');
    expect(output).toMatch(/^# final validation \(full suite\)[^]*ℹ pass 2\n/);
    expect(output).not.toMatch(/test-headless/);
    const summary = readFileSync(join(sessionDir(repo), '.summaries/session-summary.md'), 'utf8');
    expect(summary).toMatch(
      /## Not run here\n- `npm run test-headless`: cannot run on this machine \(it needs a program that is not here\)/,
    );
  });

  it('stops an unbroken project the same way, and skipParts in the config leaves the part out: then it ends at once, exit 0', async () => {
    const repo = project(FAKE_TIMERS, 'a + b');
    const agent = scenario({ analyze: [plan], fix: [fixAdd] });
    const stopped = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(stopped.exitCode, stopped.stdout + stopped.stderr).toBe(1);
    expect(stopped.stdout).toMatch(/cannot run on this machine/);
    writeFileSync(join(repo, 'fixcycle.config.json'), JSON.stringify({ skipParts: ['test-headless'] }));
    git(repo, 'add', 'fixcycle.config.json');
    git(repo, 'commit', '-qm', 'skip the headless part');
    const doctor = await runCli(repo, ['doctor']);
    expect(doctor.stdout).toMatch(/left out: {6}npm run test-headless \(skipParts in fixcycle\.config\.json\)/);
    expect(doctor.stdout).not.toMatch(/then runs: +npm run test-headless/);
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\[test\] done: pass 100% \(2\/2\)/);
    expect(agent.calls()).toEqual([]);
  });

  it("make's targets are parts too: `make test` running `test: test-node test-browser` leaves the browser target out, named as skipParts names it", async () => {
    // As chai's Makefile: mocha in one target, karma with a headless browser in the next.
    const repo = project({ test: 'make test' }, 'a - b', {
      Makefile:
        'test: test-node test-browser\ntest-node:\n\t./node_modules/.bin/mocha test/*.spec.js\ntest-browser:\n\tfixcycle-no-such-browser --headless\n.PHONY: test test-node test-browser\n',
      'test/math.spec.js':
        "const assert = require('node:assert');\nconst { add } = require('../src/math.js');\ndescribe('math', () => {\n  it('adds', () => assert.strictEqual(add(2, 3), 5));\n  it('adds zero', () => assert.strictEqual(add(2, 0), 2));\n});\n",
    });
    const agent = scenario({ analyze: [plan], fix: [fixAdd] });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(agent.calls().map((c) => c.split(' ')[1])).toEqual(['analyze', 'fix']);
    expect(agent.prompt('agent', 'analyze', 1)).not.toMatch(/test-browser|fixcycle-no-such-browser/);
    expect(run.stdout).toMatch(
      /left out of the later runs: the test command's part `make test-browser` \(run after the tests\) cannot run on this machine: [^\n]*needs a program that is not here/,
    );
    expect(run.stdout).toMatch(
      /\[done\] failure — converged on what runs here \(every test passes\); not run: the test command's part `make test-browser` \(it needs a program that is not here\)[^\n]*"skipParts": \["test-browser"\]/,
    );
    expect(state(repo)).toMatchObject({
      stopped_by: 'part_not_run',
      parts_not_run: [{ name: 'test-browser', command: ['make', 'test-browser'], needs: 'a program' }],
    });
    const output = readFileSync(join(sessionDir(repo), '.process/test-output.log'), 'utf8');
    // make runs the tests' target whole (mocha's options are the Makefile's): the re-test is the full run, without the browser.
    expect(output).toMatch(
      /^# iteration 1: re-test[^\n]*\n\.\/node_modules\/\.bin\/mocha test\/\*\.spec\.js\n[^]*2 passing/,
    );
    expect(output).not.toMatch(/fixcycle-no-such-browser/);
  });

  it('a service that refuses the connection before the tests: the part is named and its error quoted; no agent call', async () => {
    // A pretest that waits for a database, as projects testing against a service do; nothing listens on port 9.
    const repo = project({ pretest: 'node scripts/wait-for-db.js', test: 'node --test' }, 'a - b', {
      'scripts/wait-for-db.js':
        "const net = require('node:net');\nconst socket = net.connect(9, '127.0.0.1');\nsocket.on('connect', () => socket.end());\n",
    });
    const agent = scenario({ analyze: [plan], fix: [fixAdd] });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(agent.calls()).toEqual([]);
    expect(run.stdout).toMatch(
      /\[done\] failure — no test ran: the test command's part `node scripts\/wait-for-db\.js` \(run before the tests\) cannot run on this machine: [^\n]*needs a connection that is not here[^\n]*"skipParts": \["node scripts\/wait-for-db\.js"\]/,
    );
    expect(run.stdout).toMatch(/its own words:\n[\s\S]*Error: connect ECONNREFUSED 127\.0\.0\.1:9/);
  });

  it('a part that fails a test is no such stop, even when its output names a refused connection', async () => {
    const repo = project({ test: 'node --test && node --test test-client/' }, 'a + b', {
      'test-client/client.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\ntest('reports a refused connection', () => assert.strictEqual('connect ECONNREFUSED 127.0.0.1:9', 'retrying'));\n",
    });
    const agent = scenario({
      analyze: [plan],
      fix: [
        {
          edits: [
            { file: 'test-client/client.test.js', search: "'retrying'", replace: "'connect ECONNREFUSED 127.0.0.1:9'" },
          ],
        },
      ],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path), '--max-iterations', '1']);
    expect(run.stdout).not.toMatch(/cannot run on this machine/);
    expect(agent.calls()[0]).toMatch(/^agent analyze 1/);
  });

  it('a test that needs a terminal: the unbroken project stops at once naming it; in a broken one the agent never sees it, fixes the rest, then the same stop', async () => {
    // inquirer's "No exception when using tty other than process.stdin" opens /dev/tty; fixcycle's runs have no terminal.
    const tty = {
      'test/tty.test.js':
        "const test = require('node:test');\nconst fs = require('node:fs');\ntest('reads keys from the terminal', () => fs.closeSync(fs.openSync('/dev/tty', 'r')));\n",
    };
    const clean = project({ test: 'node --test' }, 'a + b', tty);
    const idle = scenario({ analyze: [plan], fix: [fixAdd] });
    const stopped = await runCli(clean, [...headless, '--agent-cmd', agentCmd(idle.path)]);
    expect(stopped.exitCode, stopped.stdout + stopped.stderr).toBe(1);
    expect(idle.calls()).toEqual([]);
    expect(stopped.stdout).toMatch(
      /the test `[^`]*reads keys from the terminal` cannot run on this machine: it fails only because a terminal \(\/dev\/tty\) is not here/,
    );
    expect(stopped.stdout).toMatch(/ENXIO: no such device or address, open '\/dev\/tty'/);

    const broken = project({ test: 'node --test' }, 'a - b', tty);
    const agent = scenario({ analyze: [plan], fix: [fixAdd] });
    const run = await runCli(broken, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(agent.calls().map((c) => c.split(' ').slice(1, 2)[0])).toEqual(['analyze', 'fix']);
    expect(agent.prompt('agent', 'analyze', 1)).toMatch(/adds/);
    expect(agent.prompt('agent', 'analyze', 1)).not.toMatch(/reads keys from the terminal/);
    expect(git(broken, 'log', '--format=%s').split('\n')[0]).toMatch(/^test-cycle: iteration 1 /);
    expect(state(broken)).toMatchObject({
      status: 'failed',
      stopped_by: 'no_test_ran',
      outcome_reason: expect.stringMatching(/reads keys from the terminal` cannot run on this machine/),
    });
  });
});
