import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listlibFeatureRepo } from '../helpers/gen-run.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, execa, git, readJson, removeRepos, ROOT, runCli } from '../helpers/repo.js';
import { activeDir } from '../../src/engine/session/paths.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/gen-agent.mjs');

async function waitFor(path: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!existsSync(path)) {
    if (Date.now() > end) throw new Error(`${path} never appeared`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts fixcycle, waits until the agent hangs in `hang`, and kills fixcycle with SIGKILL. */
async function killWhileHanging(repo: string, agent: string, args: string[], hang: string): Promise<string> {
  writeFileSync(join(agent, `hang-${hang}`), '');
  const child = execa(
    process.execPath,
    [CLI, ...args, '--headless', '--agent-cmd', `${process.execPath} ${AGENT} ${agent}`],
    { cwd: repo, reject: false, env: { FORCE_COLOR: '0' } },
  );
  // The gates before IMPL-002 run each new test 5 times, under coverage and against mutants: minutes on a busy machine.
  await waitFor(join(agent, `hanging-${hang}`), 180_000);
  child.kill('SIGKILL');
  const result = await child;
  expect(result.signal).toBe('SIGKILL');
  return result.stdout;
}

describe('fixcycle gen after kill -9', () => {
  it('resumes in each phase without redoing a finished one', async () => {
    const repo = listlibFeatureRepo();
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gen-agent-'));
    const calls = () => readFileSync(join(agent, 'calls.log'), 'utf8').trim().split('\n');

    // Killed in phase 3 (the analysis agent hangs): phases 1-2 are done.
    const first = await killWhileHanging(repo, agent, ['gen'], 'analyze-test-analysis');
    expect(first).toMatch(/\[context\] done/);
    const dir = join(activeDir(repo), readdirSync(activeDir(repo))[0]!);
    expect(readJson(join(dir, '.process/gen-state.json')).phases_done).toEqual(['session', 'context']);

    // Killed in phase 5, IMPL-001 (the generate agent hangs): phases 1-4 are not redone.
    const second = await killWhileHanging(repo, agent, ['run', '--resume-session'], 'generate-IMPL-001');
    expect(second).toMatch(/\[context\] done: done earlier \(resumed\)/);
    expect(second).not.toMatch(/measuring the coverage/);
    expect(second).toMatch(/\[analysis\] done: gen-agent/);
    expect(readJson(join(dir, '.process/gen-state.json'))).toMatchObject({
      phases_done: ['session', 'context', 'analysis', 'tasks'],
      step: 'generate',
      generate_round: 0,
    });

    // Killed in IMPL-002 (the fix loop's analysis hangs): the generation and the gates are not redone.
    const third = await killWhileHanging(repo, agent, ['run', '--resume-session'], 'analyze-iteration-1');
    expect(third).toMatch(/\[tasks\] done: done earlier \(resumed\)/);
    expect(third).toMatch(/\[IMPL-001\.5\] done/);
    const generateCalls = calls().filter((c) => c.startsWith('generate')).length;
    expect(readJson(join(dir, '.process/gen-state.json')).step).toBe('fix');

    const last = await runCli(
      repo,
      ['run', '--resume-session', '--headless', '--agent-cmd', `${process.execPath} ${AGENT} ${agent}`],
      { timeoutMs: 180_000 },
    );
    expect(last.exitCode, last.stdout + last.stderr).toBe(0);
    expect(last.stdout).not.toMatch(/\[IMPL-001\]/);
    expect(calls().filter((c) => c.startsWith('generate')).length).toBe(generateCalls);
    expect(calls().filter((c) => c === 'analyze test-analysis')).toHaveLength(2); // the hung call and the real one
    const subjects = git(repo, 'log', '--format=%s').split('\n');
    expect(subjects.filter((s) => s.startsWith('test-gen: IMPL-001'))).toHaveLength(1);
    expect(subjects[0]).toMatch(/^test-cycle: iteration 1 /);
    expect(readJson(join(dir, '.process/iteration-state.json')).status).toBe('completed');
    expect(readJson(join(dir, '.process/gen-state.json')).step).toBe('done');
  }, 480_000);
});
