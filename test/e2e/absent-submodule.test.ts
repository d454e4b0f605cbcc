import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

afterAll(removeRepos);

const headless = ['run', '--headless'];
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

const MATH_TEST =
  "const { add } = require('../src/math.js');\ntest('adds', () => expect(add(2, 3)).toBe(5));\ntest('adds zero', () => expect(add(2, 0)).toBe(2));\n";
// As parse5's generated suites: the test file lists the upstream test data as it loads.
const DATA_TEST =
  "const fs = require('node:fs');\nconst path = require('node:path');\nconst dir = path.join(__dirname, '../data/html5lib-tests/tokenizer');\nfor (const name of fs.readdirSync(dir)) test(name, () => expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBeTruthy());\n";

/**
 * A jest project whose upstream test data is a git submodule, cloned without --recursive: .gitmodules lists it,
 * the tree pins its commit, its folder is empty.
 */
function project(add: string, extra: Record<string, string> = {}): string {
  const repo = makeRepo(null, {
    '.gitignore': 'node_modules\n',
    '.gitmodules':
      '[submodule "html5lib-tests"]\n\tpath = data/html5lib-tests\n\turl = https://github.com/html5lib/html5lib-tests.git\n',
    'package.json': JSON.stringify({ name: 'p', private: true, scripts: { test: 'jest' } }),
    'src/math.js': `exports.add = (a, b) => ${add};\n`,
    'test/math.test.js': MATH_TEST,
    'test/tokenizer.test.js': DATA_TEST,
    ...extra,
  });
  git(repo, 'update-index', '--add', '--cacheinfo', `160000,${'5'.repeat(40)},data/html5lib-tests`);
  git(repo, 'commit', '-qm', 'html5lib-tests as a submodule');
  mkdirSync(join(repo, 'data/html5lib-tests'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  return repo;
}

describe('a test file that reads a git submodule not checked out', { timeout: 180_000 }, () => {
  it("the unbroken project stops at once naming the submodule, how to get it, and jest's words; no agent call", async () => {
    const repo = project('a + b');
    const agent = scenario({ analyze: [plan], fix: [fixAdd] });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(agent.calls()).toEqual([]);
    expect(run.stdout).toMatch(
      /\[done\] failure — the test file `test\/tokenizer\.test\.js` cannot run on this machine: it fails only because the git submodule `data\/html5lib-tests` \(listed in \.gitmodules, not checked out\) is not here, which no change to the code can fix, so no agent is asked: check it out with `git submodule update --init data\/html5lib-tests`/,
    );
    expect(run.stdout).toMatch(
      /test\/tokenizer\.test\.js:\n {2}ENOENT: no such file or directory, scandir '[^']*\/data\/html5lib-tests\/tokenizer'/,
    );
    // jest's own counts: 2 tests passed, 1 suite failed to run.
    const results = readJson(join(sessionDir(repo), '.process/test-results.json'));
    expect(results).toMatchObject({ passed: 2, failed: 0 });
    expect(results.errors[0]).toMatchObject({
      file: 'test/tokenizer.test.js',
      notHere: { what: expect.stringMatching(/^the git submodule `data\/html5lib-tests`/) },
    });
    expect(state(repo)).toMatchObject({ status: 'failed', stopped_by: 'no_test_ran' });
  });

  it('in a broken project the agent never sees the file, fixes the rest, and the run then stops the same way', async () => {
    const repo = project('a - b');
    const agent = scenario({ analyze: [plan], fix: [fixAdd] });
    // In place: the session ends as a failure (the stop), and a failed session run in its own worktree keeps its fix on
    // its branch rather than bringing it to the user's; this test reads the fix commit on the user's branch.
    const run = await runCli(repo, [...headless, '--in-place', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(agent.calls().map((c) => c.split(' ')[1])).toEqual(['analyze', 'fix']);
    expect(agent.prompt('agent', 'analyze', 1)).toMatch(/adds/);
    expect(agent.prompt('agent', 'analyze', 1)).not.toMatch(/tokenizer|ENOENT/);
    expect(git(repo, 'log', '--format=%s').split('\n')[0]).toMatch(/^test-cycle: iteration 1 /);
    expect(state(repo)).toMatchObject({
      status: 'failed',
      stopped_by: 'no_test_ran',
      outcome_reason: expect.stringMatching(
        /^the test file `test\/tokenizer\.test\.js` cannot run on this machine: it fails only because the git submodule `data\/html5lib-tests`/,
      ),
    });
  });

  it("a file missing outside the submodule (a fixture the code renamed) stays the agent's to fix", async () => {
    const repo = project('a + b', {
      'test/tokenizer.test.js':
        "const fs = require('node:fs');\nconst path = require('node:path');\nconst page = fs.readFileSync(path.join(__dirname, 'fixtures/page.html'), 'utf8');\ntest('reads the page', () => expect(page).toMatch(/html/));\n",
      'test/fixtures/index.html': '<html></html>\n',
    });
    const agent = scenario({
      analyze: [plan],
      fix: [{ edits: [{ file: 'test/tokenizer.test.js', search: 'page.html', replace: 'index.html' }] }],
    });
    const run = await runCli(repo, [...headless, '--agent-cmd', agentCmd(agent.path), '--max-iterations', '1']);
    expect(run.stdout).not.toMatch(/cannot run on this machine/);
    expect(agent.calls()[0]).toMatch(/^agent analyze 1/);
    expect(agent.prompt('agent', 'analyze', 1)).toMatch(
      /ENOENT: no such file or directory, open '[^']*test\/fixtures\/page\.html'/,
    );
  });
});
