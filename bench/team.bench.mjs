// team_wave_speedup: one wave of 3 generator tasks whose stand-in agent takes 2 s each (then writes a test file
// that passes the L0 gate), run by `fixcycle team`'s wave engine at -c 3 (each task in its own git worktree,
// merged back in task order) and at -c 1 (one after another in the main tree): time at -c 1 / time at -c 3.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const AGENT = join(here, '../test/fixtures/agents/team-agent.mjs');

function repo() {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-team-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'bench', type: 'module', scripts: { test: 'node --test' } }),
  );
  writeFileSync(join(dir, 'src/a.js'), 'export const a = 1;\n');
  const git = (...args) => execFileSync('git', args, { cwd: dir });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '--allow-empty', '-m', 'init');
  git('add', '-A');
  git('-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'code');
  git('config', 'user.name', 'b');
  git('config', 'user.email', 'b@b');
  return dir;
}

async function wave(concurrency) {
  const { runWaves } = await import('../dist/engine/team/wave-engine.js');
  const { createTeamSession } = await import('../dist/engine/team/session.js');
  const { Mutex } = await import('../dist/engine/team/team-context.js');
  const { writeTasks } = await import('../dist/engine/team/tasks-csv.js');
  const { genAgents, genRunner } = await import('../dist/engine/gen/setup.js');
  const root = repo();
  const agentState = mkdtempSync(join(tmpdir(), 'fixcycle-bench-team-agent-'));
  const paths = await createTeamSession(join(root, '.workflow/.csv-wave/tst-bench'));
  const cmd = `${process.execPath} ${AGENT} ${agentState} bench 2000`;
  const tasks = [1, 2, 3].map((n) => ({
    id: `TESTGEN-00${n}`,
    title: 't',
    description: 'd',
    role: 'generator',
    layer: 'L1',
    coverage_target: '80',
    deps: '',
    context_from: '',
    exec_mode: 'csv-wave',
    wave: '1',
    status: 'pending',
    findings: '',
    pass_rate: '',
    coverage_achieved: '',
    test_files: '',
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
    changed: [],
    tasks,
    runner: await genRunner(root, {}, {}),
    agents: await genAgents(root, { agentCmds: [cmd] }, {}, emit, 60_000),
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
    save: () => files.run(() => writeTasks(paths.tasks, tasks)),
  };
  const start = process.hrtime.bigint();
  await runWaves(ctx);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const done = tasks.filter((t) => t.status === 'completed').length;
  rmSync(root, { recursive: true, force: true });
  rmSync(agentState, { recursive: true, force: true });
  if (done !== 3)
    throw new Error(
      `team bench: ${done}/3 tasks completed at -c ${concurrency}: ${tasks.map((t) => t.error).join('; ')}`,
    );
  return seconds;
}

export default async function () {
  const serial = await wave(1);
  const parallel = await wave(3);
  return { team_wave_speedup: serial / parallel, team_wave_c1_s: serial, team_wave_c3_s: parallel };
}
