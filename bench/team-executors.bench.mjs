// team_executor_wave_speedup: one wave of 2 executor tasks whose layer's tests take 2 s each, run by `fixcycle team`'s
// wave engine at -c 2 (each executor measures in its own git worktree, merged back in task order) and at -c 1 (one
// after the other in the main tree): time at -c 1 / time at -c 2.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function repo() {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-team-exec-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'bench', type: 'module', scripts: { test: 'node --test' } }),
  );
  writeFileSync(join(dir, 'src/a.js'), 'export const a = 1;\n');
  for (const layer of ['L1', 'L2']) {
    writeFileSync(
      join(dir, `test/${layer}.test.js`),
      `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { a } from '../src/a.js';\n\ntest('${layer} waits 2 s', async () => {\n  await new Promise((r) => setTimeout(r, 2000));\n  assert.equal(a, 1);\n});\n`,
    );
  }
  const git = (...args) => execFileSync('git', args, { cwd: dir });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'b');
  git('config', 'user.email', 'b@b');
  git('add', '-A');
  git('commit', '-q', '-m', 'code and tests');
  return dir;
}

async function wave(concurrency) {
  const { runWaves } = await import('../dist/engine/team/wave-engine.js');
  const { createTeamSession } = await import('../dist/engine/team/session.js');
  const { Mutex } = await import('../dist/engine/team/team-context.js');
  const { writeTasks } = await import('../dist/engine/team/tasks-csv.js');
  const { genRunner } = await import('../dist/engine/gen/setup.js');
  const root = repo();
  const paths = await createTeamSession(join(root, '.workflow/.csv-wave/tst-bench'));
  const tasks = ['L1', 'L2'].map((layer, i) => ({
    id: `TESTRUN-00${i + 1}`,
    title: 't',
    description: 'd',
    role: 'executor',
    layer,
    coverage_target: '0',
    deps: '',
    context_from: '',
    exec_mode: 'interactive',
    wave: '1',
    status: 'pending',
    findings: '',
    pass_rate: '',
    coverage_achieved: '',
    test_files: `test/${layer}.test.js`,
    error: '',
  }));
  const files = new Mutex();
  const emit = () => {};
  const ctx = {
    root,
    sessionId: 'tst-bench',
    paths,
    record: {
      session_id: 'tst-bench',
      requirement: '',
      pipeline: 'comprehensive',
      pipeline_why: 'bench',
      accepted_by: '--pipeline',
      scope: {
        against: 'HEAD~1',
        base: null,
        head: 'HEAD',
        describedAs: 'bench',
        files: ['src/a.js'],
        modules: ['src'],
      },
      runner: 'node-test',
      created_at: '',
    },
    changed: [{ file: 'src/a.js', lines: [1] }],
    tasks,
    runner: await genRunner(root, {}, {}),
    agents: [],
    options: {
      concurrency,
      agentTimeoutMs: 60_000,
      testTimeoutMs: 60_000,
      maxGcRounds: 3,
      maxL0Rounds: 3,
      maxFixIterations: 3,
    },
    emit,
    signal: new globalThis.AbortController().signal,
    mainTree: new Mutex(),
    files,
    loop: {},
    save: () => files.run(() => writeTasks(paths.tasks, tasks)),
  };
  const start = process.hrtime.bigint();
  await runWaves(ctx);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const done = tasks.filter((t) => t.status === 'completed' && t.pass_rate === '1').length;
  rmSync(root, { recursive: true, force: true });
  if (done !== 2)
    throw new Error(
      `team executor bench: ${done}/2 tasks completed with every test passing at -c ${concurrency}: ${tasks.map((t) => t.error || t.findings).join('; ')}`,
    );
  return seconds;
}

export default async function () {
  const serial = await wave(1);
  const parallel = await wave(2);
  return {
    team_executor_wave_speedup: serial / parallel,
    team_executor_wave_c1_s: serial,
    team_executor_wave_c2_s: parallel,
  };
}
