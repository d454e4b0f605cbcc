import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
  sessionDir,
  state,
} from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--test-cmd', 'node --test'];
/** percent() floors instead of rounding: one failing test of 20, 95%. */
const PERCENT_FLOORS = {
  'src/format.js':
    "export function pad(value, width) {\n  return String(value).padStart(width, '0');\n}\n\nexport function percent(ratio) {\n  return `${Math.floor(ratio * 100)}%`;\n}\n",
};
const FIXED_CALC =
  "export function add(a, b) {\n  return a + b;\n}\n\nexport function multiply(a, b) {\n  return a * b;\n}\n\nexport function divide(a, b) {\n  if (b === 0) throw new Error('division by zero');\n  return a / b;\n}\n";

async function waitFor(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('partial success', () => {
  const config = JSON.stringify({ criticality: [{ match: 'percent', level: 'low' }] });

  it('stops awaiting approval (exit 3) without --yes, then --resume-session --yes approves it (exit 0)', async () => {
    const repo = makeRepo(CALC, { ...PERCENT_FLOORS, 'src/calc.js': FIXED_CALC, 'fixcycle.config.json': config });
    const agent = scenario({ analyze: [planAdd] });
    const first = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(first.exitCode, first.stdout + first.stderr).toBe(3);
    expect(first.stdout).toMatch(/partial success at 95%.*--resume-session WFS-test-\S+ --yes/);
    expect(state(repo)).toMatchObject({ status: 'awaiting_approval', next_action: 'await_approval' });
    const results = readJson(join(sessionDir(repo), '.process/test-results.json'));
    expect(results.failures).toEqual([
      expect.objectContaining({ name: 'shows 0.999 as 100%', criticality: 'low', criticality_source: 'config' }),
    ]);
    expect(agent.calls()).toEqual([]);

    const second = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--resume-session', '--yes']);
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    expect(state(repo)).toMatchObject({ status: 'partial_success', next_action: 'complete' });
    expect(second.stdout).toMatch(/\[done\] partial success/);
  });

  it('approves at once with --yes', async () => {
    const repo = makeRepo(CALC, { ...PERCENT_FLOORS, 'src/calc.js': FIXED_CALC, 'fixcycle.config.json': config });
    const run = await runCli(repo, [...base, '--agent-cmd', 'true', '--yes']);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(state(repo).status).toBe('partial_success');
  });

  it('does not stop at 95% when the failure is not low criticality', async () => {
    const repo = makeRepo(CALC, { ...PERCENT_FLOORS, 'src/calc.js': FIXED_CALC });
    const fixPercent = { edits: [{ file: 'src/format.js', search: 'Math.floor', replace: 'Math.round' }] };
    const agent = scenario({
      analyze: [
        {
          plan: {
            ...planAdd.plan,
            root_causes: ['percent floors'],
            modification_points: ['src/format.js:percent:5-7'],
          },
        },
      ],
      fix: [fixPercent],
    });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(state(repo)).toMatchObject({ status: 'completed', current_iteration: 1 });
  });
});

describe('resume', () => {
  it('continues after kill -9 in the middle of a fix, without losing or repeating an iteration', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ sleepOnceMs: 60_000, edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const child = execa(process.execPath, [CLI, ...base, '--agent-cmd', agentCmd(agent.path)], {
      cwd: repo,
      reject: false,
    });
    await waitFor(() => agent.calls().includes('agent fix 1 conservative'), 'the fix to start');
    child.kill('SIGKILL');
    await child;
    // kill -9 leaves the agent running in its own process group; a person would see it and stop it too.
    const agentPid = Number(readFileSync(join(agent.dir, 'pid-agent-fix'), 'utf8'));
    process.kill(agentPid, 'SIGKILL');
    await waitFor(() => !alive(agentPid), 'the agent to die', 5000);
    expect(state(repo)).toMatchObject({ next_action: 'execute_fix_task', current_iteration: 1 });
    expect(state(repo).iterations[0].step).toBe('fix');

    const resumed = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--resume-session']);
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/resuming WFS-test-/);
    expect(agent.calls()).toEqual([
      'agent analyze 1 conservative',
      'agent fix 1 conservative',
      'agent fix 1 conservative',
      'agent analyze 2 conservative',
      'agent fix 2 conservative',
    ]);
    const s = state(repo);
    expect(s.iterations.map((i: any) => i.iteration)).toEqual([1, 2]);
    expect(
      git(repo, 'log', '--format=%s')
        .split('\n')
        .filter((m) => m.startsWith('test-cycle: iteration 1 ')),
    ).toHaveLength(1);
    expect(readJson(join(sessionDir(repo), '.process/fix-history.json')).map((h: any) => h.iteration)).toEqual([1, 2]);
  });

  it('continues after kill -9 in the middle of the re-test: re-tests, then commits the fix once', async () => {
    // The re-test hangs once: the fix leaves an ignored marker that the slow test (which imports calc.js, so the
    // affected re-test runs it) consumes.
    const slowTest = [
      "import { it } from 'node:test';",
      "import { existsSync, rmSync } from 'node:fs';",
      "import { add } from '../src/calc.js';",
      `it('waits for a slow dependency', async () => { if (existsSync('.slow-once')) { rmSync('.slow-once'); await new Promise((r) => setTimeout(r, 60_000)); } });`,
    ].join('\n');
    const repo = makeRepo(CALC, { 'test/slow.test.js': slowTest, '.gitignore': '.slow-once\n' });
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd], write: { '.slow-once': '' } }, { edits: [editMultiply] }],
    });
    const child = execa(process.execPath, [CLI, ...base, '--agent-cmd', agentCmd(agent.path)], {
      cwd: repo,
      reject: false,
    });
    // The loop works in the session's worktree: the marker is written and consumed there.
    const worktree = (): string => state(repo).worktree.dir;
    await waitFor(() => {
      try {
        return state(repo).next_action === 'retest' && !existsSync(join(worktree(), '.slow-once'));
      } catch {
        return false;
      }
    }, 'the re-test to hang');
    child.kill('SIGKILL');
    await child;
    // The hung test runner is in its own process group, which kill -9 of fixcycle does not reach.
    await execa('pkill', ['-9', '-f', join(worktree(), 'test')], { reject: false });
    expect(
      git(repo, 'log', '--format=%s')
        .split('\n')
        .filter((m) => m.startsWith('test-cycle: iteration 1 ')),
    ).toHaveLength(0);

    const resumed = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--resume-session']);
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    expect(agent.calls().filter((c) => c.includes(' 1 '))).toEqual([
      'agent analyze 1 conservative',
      'agent fix 1 conservative',
    ]);
    expect(
      git(repo, 'log', '--format=%s')
        .split('\n')
        .filter((m) => m.startsWith('test-cycle: iteration 1 ')),
    ).toHaveLength(1);
    expect(state(repo).iterations.map((i: any) => [i.iteration, i.result])).toEqual([
      [1, 'improved'],
      [2, 'improved'],
    ]);
  });

  it('explains a corrupt or foreign state file in one line, and leaves it as it was', async () => {
    const repo = makeRepo(CALC, { 'src/calc.js': FIXED_CALC });
    expect((await runCli(repo, [...base, '--agent-cmd', 'true'])).exitCode).toBe(0);
    const file = join(sessionDir(repo), '.process/iteration-state.json');
    for (const content of ['{"iterations": [', '{"iterations": 5}']) {
      writeFileSync(file, content);
      const run = await runCli(repo, [...base, '--agent-cmd', 'true', '--resume-session']);
      expect(run.exitCode).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(
        /iteration-state\.json is not (valid JSON|an iteration state).*start a new session without --resume-session/,
      );
      expect(readFileSync(file, 'utf8')).toBe(content);
    }
  });

  it('refuses to drive a session that another live process holds', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: [planAdd], fix: [{ sleepMs: 60_000 }] });
    const child = execa(process.execPath, [CLI, ...base, '--agent-cmd', agentCmd(agent.path)], {
      cwd: repo,
      reject: false,
    });
    await waitFor(() => agent.calls().includes('agent fix 1 conservative'), 'the fix to start');
    const second = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--resume-session']);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toMatch(/is being driven by process \d+; watch it with `fixcycle watch/);
    child.kill('SIGINT');
    const stopped = await child;
    expect(stopped.exitCode).toBe(130);
    expect(state(repo).status).toBe('interrupted');
    expect(existsSync(join(sessionDir(repo), '.lock'))).toBe(false);
  });
});

describe('Ctrl-C during the first test run', () => {
  // A new session's first run starts before the loop is built (so a passing suite costs little more than the
  // test command); Ctrl-C there still kills the run's whole process tree and leaves a session that resumes.
  it('kills the test command, saves the session as interrupted, and the resumed session runs the suite again', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'fixcycle-sigint-')), 'test.pid');
    const repo = makeRepo(CALC, {
      'src/calc.js': FIXED_CALC,
      'test/slow.test.js': `import { it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { writeFileSync } from 'node:fs';\n\nit('waits for its signal', async () => {\n  if (!process.env.FIXCYCLE_TEST_FAST) {\n    writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\n    await new Promise((r) => setTimeout(r, 60_000));\n  }\n  assert.ok(true);\n});\n`,
    });
    const child = execa(process.execPath, [CLI, ...base, '--agent-cmd', 'true'], { cwd: repo, reject: false });
    await waitFor(() => existsSync(pidFile), 'the test file to start');
    const testPid = Number(readFileSync(pidFile, 'utf8'));
    child.kill('SIGINT');
    const stopped = await child;
    expect(stopped.exitCode, stopped.stdout + stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/stopping after the running step is killed; the session stays resumable/);
    await waitFor(() => !alive(testPid), 'the test process to be gone', 5000);
    expect(state(repo).status).toBe('interrupted');
    expect(existsSync(join(sessionDir(repo), '.lock'))).toBe(false);
    const resumed = await execa(process.execPath, [CLI, ...base, '--agent-cmd', 'true', '--resume-session'], {
      cwd: repo,
      reject: false,
      env: { FORCE_COLOR: '0', FIXCYCLE_TEST_FAST: '1' },
    });
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/initial test run/);
    expect(state(repo).status).toBe('completed');
  });
});

describe('a hung test command', () => {
  it('is killed with its whole process tree at --test-timeout, recorded, and the loop goes on', async () => {
    const marker = `fixcycle-hang-${process.pid}-${Date.now() % 100000}`;
    const repo = makeRepo(CALC, {
      'src/calc.js': FIXED_CALC,
      'src/wait.js':
        'export async function settle(flag) {\n  while (flag) await new Promise((r) => setTimeout(r, 50));\n  return "done";\n}\n',
      'test/wait.test.js': `import { it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { spawn } from 'node:child_process';\nimport { settle } from '../src/wait.js';\n\nspawn('sh', ['-c', 'sleep 300 # ${marker}'], { stdio: 'ignore' }).unref();\nit('settles', async () => assert.equal(await settle(true), 'done'));\n`,
    });
    const agent = scenario({
      analyze: [
        {
          plan: {
            ...planAdd.plan,
            root_causes: ['settle() waits while the flag is set'],
            modification_points: ['src/wait.js:settle:1-4'],
          },
        },
      ],
      fix: [{ edits: [{ file: 'src/wait.js', search: 'while (flag)', replace: 'while (!flag)' }] }],
    });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--test-timeout', '4s']);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const before = readJson(join(sessionDir(repo), '.process/iteration-1-failures.json'));
    expect(before).toMatchObject({ timed_out: true });
    expect(before.pass_rate).toBeLessThan(100);
    expect(before.errors.map((e: { message: string }) => e.message).join('\n')).toMatch(/timed out/);
    expect(agent.prompt('agent', 'analyze', 1)).toMatch(/timed out/);
    const leftovers = await execa('pgrep', ['-f', marker], { reject: false });
    expect(leftovers.stdout.trim()).toBe('');
  });
});
