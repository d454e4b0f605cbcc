import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listlibFeatureRepo } from '../helpers/gen-run.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, execa, git, readJson, removeRepos, ROOT } from '../helpers/repo.js';
import { activeDir } from '../../src/engine/session/paths.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/gen-agent.mjs');
const HOLD = join(ROOT, 'test/fixtures/hold-write.mjs');

/**
 * Runs the real dist/cli.js until it is inside the step that writes a file matching `file` (the write is held,
 * see hold-write.mjs), then kills it with SIGKILL. Returns what it printed.
 */
async function killInside(
  repo: string,
  agent: string,
  args: string[],
  file: string,
  content?: string,
): Promise<string> {
  const marker = join(agent, `held-${Date.now()}`);
  const env = {
    FORCE_COLOR: '0',
    HOLD_WRITE_FILE: file,
    HOLD_WRITE_MARKER: marker,
    ...(content ? { HOLD_WRITE_CONTENT: content } : {}),
  };
  const child = execa(
    process.execPath,
    ['--import', HOLD, CLI, ...args, '--headless', '--agent-cmd', `${process.execPath} ${AGENT} ${agent}`],
    { cwd: repo, reject: false, env },
  );
  const end = Date.now() + 180_000;
  while (!existsSync(marker) && child.exitCode === null && Date.now() < end)
    await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(marker)) {
    child.kill('SIGKILL');
    const r = await child;
    throw new Error(`fixcycle never reached the write of ${file} (exit ${r.exitCode}):\n${r.stdout}\n${r.stderr}`);
  }
  child.kill('SIGKILL');
  const result = await child;
  expect(result.signal).toBe('SIGKILL');
  return result.stdout;
}

const RESUME = ['run', '--resume-session'];

describe('fixcycle gen, kill -9 inside every phase and step', () => {
  it('resumes each time from the step it was in, without redoing a finished one, and loses nothing', async () => {
    const repo = listlibFeatureRepo();
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gen-agent-'));
    const calls = (prefix: string) =>
      readFileSync(join(agent, 'calls.log'), 'utf8')
        .trim()
        .split('\n')
        .filter((c) => c.startsWith(prefix)).length;
    const state = () => readJson(join(dir(), '.process/gen-state.json'));
    const dir = () => join(activeDir(repo), readdirSync(activeDir(repo))[0]!);
    const start = git(repo, 'rev-parse', 'HEAD').trim();
    // gen works in its own worktree: until it ends, the user's branch and files are as they were.
    const untouched = () => {
      expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(start);
      expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    };

    // Phase 1, writing workflow-session.json: the session can be resumed, and phase 1 is all that is left to redo.
    await killInside(repo, agent, ['gen'], 'workflow-session\\.json$');
    expect(state()).toMatchObject({ phases_done: [] });
    expect(existsSync(join(dir(), 'workflow-session.json'))).toBe(false);
    untouched();

    // Phase 2, writing the context package (after the coverage run).
    let out = await killInside(repo, agent, RESUME, 'test-context-package\\.json$');
    expect(out).toMatch(/\[session\] done: WFS-/);
    expect(readJson(join(dir(), 'workflow-session.json'))).toMatchObject({ type: 'test', input_mode: 'change' });
    expect(state().phases_done).toEqual(['session']);

    // Phase 4, writing IMPL_PLAN.md: phase 3's agent call is not made again later.
    out = await killInside(repo, agent, RESUME, 'IMPL_PLAN\\.md$');
    expect(out).toMatch(/\[session\] done: done earlier \(resumed\)/);
    expect(out).toMatch(/\[context\] done: 1 file/);
    expect(out).toMatch(/\[analysis\] done: gen-agent/);
    expect(state().phases_done).toEqual(['session', 'context', 'analysis']);
    expect(calls('analyze test-analysis')).toBe(1);

    // IMPL-001.3, writing round 1's L0 report: round 1's generation is not redone.
    out = await killInside(repo, agent, RESUME, 'l0-round-1\\.json$');
    expect(out).toMatch(/\[analysis\] done: done earlier \(resumed\)/);
    expect(out).toMatch(/\[tasks\] done/);
    expect(state()).toMatchObject({
      phases_done: ['session', 'context', 'analysis', 'tasks'],
      step: 'validate',
      generate_round: 1,
    });
    expect(calls('generate')).toBe(1);

    // IMPL-001.5, writing the quality report: round 1 is validated again (no agent), round 2 generated once.
    out = await killInside(repo, agent, RESUME, 'quality-gate\\.json$');
    expect(out).not.toMatch(/\[IMPL-001\] running: round 1/);
    expect(out).toMatch(/\[IMPL-001\.3\] failed: round 1: 1 critical finding\(s\)/);
    expect(state()).toMatchObject({ step: 'quality', generate_round: 2 });
    expect(calls('generate')).toBe(2);
    const rejectedBefore = state().rejected.length;

    // The commit step, after `git commit` and before the state says so: the resume finds the commit it made.
    out = await killInside(repo, agent, RESUME, 'gen-state\\.json$', '"step": "fix"');
    expect(out).toMatch(/\[IMPL-001\.5\] done/);
    const branch = state().worktree.branch as string;
    expect(branch).toMatch(/^fixcycle\/WFS-/);
    const genCommit = git(repo, 'rev-parse', branch).trim();
    expect(git(repo, 'log', '-1', '--format=%s', branch)).toMatch(/^test-gen: IMPL-001/);
    untouched();
    expect(state()).toMatchObject({ step: 'commit' });
    // Nothing the gates found is lost or counted twice by the resumed quality gate.
    const rejected = state().rejected as { test: string; gate: string; reason: string }[];
    expect(rejected.length).toBeGreaterThanOrEqual(rejectedBefore);
    expect(rejected.some((r) => r.gate === 'IMPL-001.5' && /flaky/.test(r.reason))).toBe(true);
    expect(new Set(rejected.map((r) => `${r.gate} ${r.test}`)).size).toBe(rejected.length);

    // The summary, after the fix loop converged.
    out = await killInside(repo, agent, RESUME, 'gen-summary\\.md$');
    expect(state()).toMatchObject({ step: 'summary', gen_commit: genCommit });
    expect(readJson(join(dir(), '.process/iteration-state.json')).status).toBe('completed');
    const fixes = calls('fix');
    expect(fixes).toBeGreaterThan(0);
    untouched();

    const last = await execa(
      process.execPath,
      [CLI, ...RESUME, '--headless', '--agent-cmd', `${process.execPath} ${AGENT} ${agent}`],
      { cwd: repo, reject: false, env: { FORCE_COLOR: '0' } },
    );
    expect(last.exitCode, last.stdout + last.stderr).toBe(0);
    expect(state()).toMatchObject({ step: 'done', gen_commit: genCommit });
    expect(existsSync(join(dir(), '.summaries/gen-summary.md'))).toBe(true);
    expect(calls('fix')).toBe(fixes);
    expect(calls('generate')).toBe(2);
    expect(calls('analyze test-analysis')).toBe(1);
    // At the end gen's commits come to the user's branch, which had not moved: a fast-forward to the session's tip.
    expect(last.stdout).toMatch(/fixes handed back to feature by fast-forward/);
    const subjects = git(repo, 'log', '--format=%s').split('\n');
    expect(subjects.filter((s) => s.startsWith('test-gen: IMPL-001'))).toHaveLength(1);
    expect(git(repo, 'log', '--format=%H').split('\n')).toContain(genCommit);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(existsSync(state().worktree.dir)).toBe(false);
    expect(git(repo, 'branch', '--list', branch).trim()).toBe('');
  }, 600_000);
});
