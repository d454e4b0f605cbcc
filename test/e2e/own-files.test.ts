import { lstatSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCmd, execa, git, makeRepo, removeRepos, ROOT, runCli, scenario, sessionDir } from '../helpers/repo.js';

afterAll(removeRepos);

const PRETTIER = join(ROOT, 'node_modules/prettier/bin/prettier.cjs');
const ESLINT = join(ROOT, 'node_modules/eslint/bin/eslint.js');
// prettier 2 as htmlparser2 pins it: its fast-glob follows symbolic links, where prettier 3 does not.
const PRETTIER2 = join(ROOT, 'node_modules/prettier2/bin-prettier.js');

/**
 * htmlparser2's shape: `npm test` is the tests and then a lint of the whole tree, where prettier checks every
 * `**\/*.{ts,md,json,yml}` and eslint every JS file. Every file of the project is formatted as prettier wants.
 */
function linted(lint = `node ${PRETTIER} --check "**/*.{js,md,json,yml}" && node ${ESLINT} .`): string {
  const repo = makeRepo(null, {
    '.gitignore': 'node_modules\n',
    'package.json': `${JSON.stringify({ name: 'p', private: true, scripts: { test: 'node --test && npm run lint', lint } }, null, 2)}\n`,
    'eslint.config.js': 'module.exports = [{ files: ["**/*.js"], rules: { "no-unused-vars": "error" } }];\n',
    'README.md': '# p\n\nA project whose lint checks the whole tree.\n',
    'src/math.js': 'exports.add = (a, b) => a + b;\n',
    'test/math.test.js':
      'const test = require("node:test");\nconst assert = require("node:assert");\nconst { add } = require("../src/math.js");\n\ntest("adds", () => assert.strictEqual(add(2, 3), 5));\n',
  });
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  return repo;
}

describe("fixcycle's own files never change what the user's command says", { timeout: 180_000 }, () => {
  it('a lint of the whole tree (real prettier and eslint) stays green with a session in it: the unbroken project ends at once, exit 0', async () => {
    const repo = linted();
    const bare = await execa('npm', ['test'], { cwd: repo, reject: false });
    expect(bare.exitCode, bare.stdout + bare.stderr).toBe(0);
    const agent = scenario({ analyze: [], fix: [] });
    const run = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(agent.calls()).toEqual([]);
    expect(run.stdout).toMatch(/after the tests: `npm run lint` passed/);
    // The session is there, with its Markdown and JSON, and the same lint still passes with it; so does a second run.
    expect(readFileSync(join(sessionDir(repo), '.summaries/session-summary.md'), 'utf8')).toMatch(
      /^# Test-fix session/,
    );
    const again = await execa('npm', ['run', 'lint'], { cwd: repo, reject: false });
    expect(again.exitCode, again.stdout + again.stderr).toBe(0);
    const second = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    // How: `.workflow` links to a folder inside the git directory, which the tools never enter; git status stays clean.
    expect(lstatSync(join(repo, '.workflow')).isSymbolicLink()).toBe(true);
    expect(realpathSync(join(repo, '.workflow'))).toBe(realpathSync(join(repo, '.git', 'fixcycle', '.workflow')));
    expect(git(repo, 'status', '--porcelain')).toBe('');
    // The files themselves are not formatted as prettier wants: only where they live keeps them out of the check.
    const direct = await execa('node', [PRETTIER, '--check', join(sessionDir(repo), '.summaries/session-summary.md')], {
      cwd: repo,
      reject: false,
    });
    expect(direct.exitCode).not.toBe(0);
  });

  it('a lint that follows links (real prettier 2, as htmlparser2 pins it) stays green too: the link is out of the tree while the command runs', async () => {
    const repo = linted(`node ${PRETTIER2} --check "**/*.{js,md,json,yml}"`);
    const agent = scenario({ analyze: [], fix: [] });
    const run = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(agent.calls()).toEqual([]);
    expect(run.stdout).toMatch(/after the tests: `npm run lint` passed/);
    // A second run, whose tree holds the first one's session: still green, with no agent call.
    const second = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    expect(agent.calls()).toEqual([]);
    // The link is back after the run, nothing waits in the git directory, git status is clean.
    expect(lstatSync(join(repo, '.workflow')).isSymbolicLink()).toBe(true);
    expect(readdirSync(join(repo, '.git', 'fixcycle')).filter((n) => n.startsWith('.workflow-link-away'))).toEqual([]);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    // With the link in the tree, prettier 2 does go through it: what the run kept it from seeing.
    const linked = await execa('npm', ['run', 'lint'], { cwd: repo, reject: false });
    expect(linked.exitCode).not.toBe(0);
    expect(linked.stdout + linked.stderr).toMatch(/\.workflow\/active\/WFS-test-[^/]+\/.*\.(md|json)/);
  });
});
