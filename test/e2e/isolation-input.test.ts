import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { activeDir } from '../../src/engine/session/paths.js';
import {
  agentCmd,
  CLI,
  execa,
  git,
  makeRepo,
  readJson,
  removeRepos,
  runCli,
  scenario,
  state,
} from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--test-cmd', 'node --test'];

async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const sessionState = (repo: string, id: string) => readJson(join(activeDir(repo), id, '.process/iteration-state.json'));

describe('isolated sessions: several at once, and bad input', () => {
  it('runs two loops at once in one repository, each in its own worktree, and status lists both', async () => {
    const repo = makeRepo(CALC);
    const slow = (steps: unknown[]) => steps.map((s) => ({ ...(s as object), sleepMs: 1500 }));
    const a = scenario({
      analyze: slow([planAdd, planMultiply]),
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const b = scenario({
      analyze: slow([planAdd, planMultiply]),
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const first = execa(process.execPath, [CLI, ...base, '--session-name', 'a', '--agent-cmd', agentCmd(a.path)], {
      cwd: repo,
      reject: false,
    });
    const second = execa(process.execPath, [CLI, ...base, '--session-name', 'b', '--agent-cmd', agentCmd(b.path)], {
      cwd: repo,
      reject: false,
    });
    let listed = '';
    await waitFor(async () => {
      const status = await runCli(repo, ['status']);
      listed = status.stdout;
      return /WFS-test-a\s+running/.test(listed) && /WFS-test-b\s+running/.test(listed);
    }, 'status to list both sessions running');
    expect(listed).toMatch(/WFS-test-a\s+running\s+on fixcycle\/WFS-test-a/);
    const [ra, rb] = await Promise.all([first, second]);
    expect(ra.exitCode, ra.stdout + ra.stderr).toBe(0);
    expect(rb.exitCode, rb.stdout + rb.stderr).toBe(0);
    const [sa, sb] = [sessionState(repo, 'WFS-test-a'), sessionState(repo, 'WFS-test-b')];
    expect(sa.worktree.dir).not.toBe(sb.worktree.dir);
    // Both made the same fixes: the one that came back second finds them there.
    expect([sa.worktree.handback.status, sb.worktree.handback.status].sort()).toEqual(['applied', 'nothing']);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect((await execa('node', ['--test'], { cwd: repo, reject: false })).exitCode).toBe(0);
  }, 240_000);

  it('makes a worktree removed by hand again from the session branch when the session resumes', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const stopped = await runCli(repo, [...base, '--max-iterations', '1', '--agent-cmd', agentCmd(agent.path)]);
    expect(stopped.exitCode, stopped.stdout + stopped.stderr).toBe(1);
    const { dir, branch } = state(repo).worktree;
    // Out of iterations, the session can go on: its worktree is kept, its fix is on its branch only.
    expect(existsSync(dir)).toBe(true);
    expect(git(repo, 'log', '--format=%s')).toBe('initial');
    rmSync(dir, { recursive: true, force: true });
    const resumed = await runCli(repo, [
      ...base,
      '--max-iterations',
      '2',
      '--resume-session',
      '--agent-cmd',
      agentCmd(agent.path),
    ]);
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`made again from ${branch}`);
    expect(git(repo, 'log', '--format=%s').split('\n')).toHaveLength(3);
    expect(readFileSync(join(repo, 'src/calc.js'), 'utf8')).toContain('return a * b;');
  });

  it('refuses an index with unresolved conflicts in one line, touching nothing', async () => {
    const repo = makeRepo(CALC);
    git(repo, 'switch', '-q', '-c', 'other');
    writeFileSync(join(repo, 'README.md'), 'theirs\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'theirs');
    git(repo, 'switch', '-q', 'main');
    writeFileSync(join(repo, 'README.md'), 'ours\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'ours');
    await execa('git', ['merge', 'other'], { cwd: repo, reject: false });
    const before = git(repo, 'status', '--porcelain');
    const run = await runCli(repo, [...base, '--agent-cmd', 'true']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/unresolved conflicts \(README\.md\): finish the merge/);
    expect(git(repo, 'status', '--porcelain')).toBe(before);
    expect(git(repo, 'branch', '--list', 'fixcycle/*')).toBe('');
  });

  it('says in one line what to do in a bare repository, on a detached HEAD and in a submodule checkout', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'fixcycle-bare-'));
    git(bare, 'init', '-q', '--bare');
    const inBare = await runCli(bare, [...base, '--agent-cmd', 'true']);
    expect(inBare.exitCode).toBe(2);
    expect(inBare.stderr).toMatch(/is a bare repository .*clone it/);
    rmSync(bare, { recursive: true, force: true });

    const detached = makeRepo(CALC);
    git(detached, 'switch', '-q', '--detach');
    const onDetached = await runCli(detached, [...base, '--agent-cmd', 'true']);
    expect(onDetached.exitCode).toBe(2);
    expect(onDetached.stderr).toMatch(/HEAD is detached: check out a branch first/);

    const inner = makeRepo(CALC);
    const outer = makeRepo(null, { 'README.md': 'outer\n' });
    git(outer, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'calc');
    git(outer, 'commit', '-qm', 'calc as a submodule');
    const sub = join(outer, 'calc');
    git(sub, 'switch', '-q', '-c', 'work');
    const inSub = await runCli(sub, [...base, '--agent-cmd', 'true']);
    expect(inSub.exitCode).toBe(2);
    expect(inSub.stderr.trim().split('\n')).toHaveLength(1);
    expect(inSub.stderr).toMatch(/is a submodule of .*: run fixcycle with --in-place, or in the superproject/);
    expect(git(sub, 'status', '--porcelain')).toBe('');
  });

  it('in place, stops before committing a fix file the user saved after the agent, committing nothing', async () => {
    // The re-test waits a little once (the fix leaves a marker an imported test consumes): the user saves then.
    const slowTest = [
      "import { it } from 'node:test';",
      "import { existsSync, rmSync } from 'node:fs';",
      "import { add } from '../src/calc.js';",
      "it('waits once', async () => { if (existsSync('.slow-once')) { rmSync('.slow-once'); await new Promise((r) => setTimeout(r, 4000)); } });",
    ].join('\n');
    const repo = makeRepo(CALC, { 'test/slow.test.js': slowTest, '.gitignore': '.slow-once\n' });
    const agent = scenario({ analyze: [planAdd], fix: [{ edits: [editAdd], write: { '.slow-once': '' } }] });
    const child = execa(process.execPath, [CLI, ...base, '--in-place', '--agent-cmd', agentCmd(agent.path)], {
      cwd: repo,
      reject: false,
    });
    await waitFor(() => {
      try {
        return state(repo).next_action === 'retest' && !existsSync(join(repo, '.slow-once'));
      } catch {
        return false;
      }
    }, 'the re-test');
    appendFileSync(join(repo, 'src/calc.js'), '// saved by the user during the re-test\n');
    const run = await child;
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/src\/calc\.js changed after the agent's fix .*fixcycle committed nothing/);
    expect(git(repo, 'log', '--format=%s')).toBe('initial');
    expect(readFileSync(join(repo, 'src/calc.js'), 'utf8')).toMatch(/saved by the user during the re-test/);
  });
});
