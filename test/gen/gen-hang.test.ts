import { cpSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeRepo, readJson, removeRepos, ROOT, runCli } from '../helpers/repo.js';
import { activeDir } from '../../src/engine/session/paths.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/gen-agent.mjs');

describe('gen on a suite that never exits', () => {
  it("a jest test leaving a handle open: the context phase's coverage run ends at --test-timeout, and the hang is named", async () => {
    const repo = makeRepo(null, {
      '.gitignore': 'node_modules\n',
      'package.json': JSON.stringify({ name: 'listlib', private: true, scripts: { test: 'jest' } }),
      'src/sign.js': "module.exports.sign = (n) => (n < 0 ? 'negative' : 'positive');\n",
      'test/sign.test.js':
        "const { sign } = require('../src/sign.js');\ntest('positive', () => {\n  setInterval(() => {}, 1000);\n  expect(sign(1)).toBe('positive');\n});\n",
    });
    symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
    git(repo, 'switch', '-q', '-c', 'feature');
    cpSync(join(ROOT, 'test/fixtures/projects-gen/listutil.js'), join(repo, 'src/listutil.js'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'add listutil');
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-hang-agent-'));
    const started = Date.now();
    const run = await runCli(
      repo,
      [
        'gen',
        '--plan-only',
        '--headless',
        '--test-timeout',
        '10s',
        '--agent-cmd',
        `${process.execPath} ${AGENT} ${agent}`,
      ],
      { timeoutMs: 150_000 },
    );
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    // One bounded run of the suite, not the 10 minutes of the default timeout.
    expect(Date.now() - started).toBeLessThan(120_000);
    expect(out).toMatch(
      /\[context\] done: .*; the suite before generation did not end: its 1 test\(s\) ran, but it was killed at the test timeout \(10s; a test left a timer, server or socket open, or the suite needs a longer --test-timeout\)/,
    );
    const dir = join(activeDir(repo), readdirSync(activeDir(repo))[0]!);
    const pkg = readJson(join(dir, '.process/test-context-package.json'));
    expect(pkg.suite_before).toMatchObject({ passed: 1, failed: 0, timedOut: true });
    // jest wrote its coverage before it hung: the changed module is measured (no test loads it yet).
    expect(pkg.coverage).toMatchObject({ measured: true });
    expect(pkg.coverage.files[0]).toMatchObject({ file: 'src/listutil.js', lines: 0 });
  }, 180_000);
});
