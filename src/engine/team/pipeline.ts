import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import type { EngineEvent } from '../events.js';
import type { TeamChoice } from './events.js';
import { Repo } from '../git.js';
import { EXIT } from '../loop/completion-step.js';
import { writeJsonAtomic } from '../session/atomic.js';
import { StartError } from '../start.js';
import { readConventions } from '../gen/conventions.js';
import { genAgents, genRunner } from '../gen/setup.js';
import type { GenRunOptions } from '../gen/pipeline.js';
import { changedLines } from './changed-lines.js';
import { appendDiscoveries, readBoard } from './discoveries.js';
import { PIPELINE_STAGES, pipelineTasks } from './pipelines.js';
import { writeReport } from './report.js';
import { choosePipeline, detectScope, PIPELINES, type PipelineName } from './scope.js';
import {
  addWisdom,
  createTeamSession,
  updateGcState,
  findTeamSession,
  claimTeamSessionId,
  teamPaths,
  teamRoot,
  type ScopeRecord,
} from './session.js';
import { Mutex, type TeamContext, type TeamOptions } from './team-context.js';
import { readTasks, writeTasks, type TeamTask } from './tasks-csv.js';
import { runWaves } from './wave-engine.js';
import { discardTestSideChanges, dirtyFiles, removeAllWorktrees } from './worktrees.js';
import { finishPipelineWorktree, pipelineWorkRepo } from '../isolation/pipeline-worktree.js';

export interface TeamRunOptions {
  cwd: string;
  requirement?: string;
  concurrency: number;
  pipeline?: PipelineName;
  yes: boolean;
  continueSession?: string | true;
  allowDirty?: boolean;
  /** --in-place: the main tree is the user's, commits land on their branch as tasks finish (as before worktrees). */
  inPlace?: boolean;
  /** --no-apply (false): the session's commits stay on its branch instead of coming back. Default true. */
  apply?: boolean;
  agentCmds?: string[];
  agentNames?: string[];
  runner?: string;
  testCmd?: string;
  agentTimeoutMs?: number;
  testTimeoutMs?: number;
  emit: (event: EngineEvent) => void;
  signal: AbortSignal;
  /** Asks the user to accept or switch the pipeline offered (interactive runs without -y); null: they quit first. */
  choose?: (offer: TeamChoice) => Promise<PipelineName | null>;
}

/** The user quit while the pipeline was offered: nothing was created. */
class ChoiceCancelled extends Error {}

/** Phase 0 and 1: the scope, the pipeline (detected, overridden or chosen), the session and tasks.csv. */
async function startSession(
  root: string,
  options: TeamRunOptions,
  runnerName: string,
): Promise<{ id: string; record: ScopeRecord; tasks: TeamTask[] }> {
  const scope = await detectScope(root);
  if (scope.files.length === 0)
    throw new StartError(
      `no changed code found (${scope.describedAs} touch no source or test file): commit or stage the change to test first`,
    );
  const detected = choosePipeline(scope);
  let pipeline = detected.pipeline;
  let acceptedBy: ScopeRecord['accepted_by'] = options.yes ? '-y' : 'headless default';
  if (options.pipeline) [pipeline, acceptedBy] = [options.pipeline, '--pipeline'];
  else if (!options.yes && options.choose) {
    const offer: TeamChoice = {
      detected: detected.pipeline,
      chosen: detected.pipeline,
      why: detected.why,
      files: scope.files.length,
      modules: scope.modules,
      options: PIPELINES.map((p) => ({ name: p, stages: PIPELINE_STAGES[p], tasks: pipelineTasks(p, '').length })),
    };
    options.emit({ type: 'team-choice', ...offer });
    const picked = await options.choose(offer);
    if (picked === null) throw new ChoiceCancelled();
    [pipeline, acceptedBy] = [picked, 'user'];
  }
  const id = await claimTeamSessionId(root, options.requirement ?? '');
  const paths = await createTeamSession(join(teamRoot(root), id));
  const tasks = pipelineTasks(pipeline, scope.describedAs);
  const { assignWaves } = await import('./waves.js');
  assignWaves(tasks);
  const record: ScopeRecord = {
    session_id: id,
    requirement: options.requirement ?? '',
    pipeline,
    pipeline_why:
      pipeline === detected.pipeline ? detected.why : `${acceptedBy} (detected: ${detected.pipeline}, ${detected.why})`,
    accepted_by: acceptedBy,
    scope,
    runner: runnerName,
    created_at: new Date().toISOString(),
  };
  await writeJsonAtomic(paths.scope, record);
  await writeTasks(paths.tasks, tasks);
  await addWisdom(paths, 'decisions', `pipeline ${pipeline}: ${record.pipeline_why}, accepted by ${acceptedBy}`);
  return { id, record, tasks };
}

/** A continued session's main tree: the uncommitted test files of the task that was interrupted go. */
async function undoInterruptedTask(main: string, emit: (event: EngineEvent) => void): Promise<void> {
  const undone = await discardTestSideChanges(main);
  if (undone.length)
    emit({
      type: 'log',
      level: 'warn',
      message: `undid the uncommitted test files of the interrupted task: ${undone.join(', ')}`,
    });
}

/** `fixcycle team`: scope → pipeline → waves of roles → report. Returns the exit code. */
export async function runTeam(options: TeamRunOptions): Promise<number> {
  const repo = await Repo.open(options.cwd);
  const root = repo.root;
  const config = await loadConfig(root);
  const genLike = {
    agentCmds: options.agentCmds,
    agentNames: options.agentNames,
    runner: options.runner,
    testCmd: options.testCmd,
  } as unknown as GenRunOptions;
  const runner = await genRunner(root, genLike, config);
  const agentTimeoutMs =
    options.agentTimeoutMs ?? (config.agentTimeoutSec ? config.agentTimeoutSec * 1000 : 40 * 60_000);
  const agents = await genAgents(root, genLike, config, options.emit, agentTimeoutMs);
  // Its executors' worktrees sit behind the link: coverage readers match files by the root's real path too.
  await repo.excludeSessionFolder({ link: true });
  let id: string;
  let record: ScopeRecord;
  let tasks: TeamTask[];
  if (options.continueSession) {
    id = await findTeamSession(root, options.continueSession).catch((e: Error) => {
      throw new StartError(e.message);
    });
    const paths = teamPaths(join(teamRoot(root), id));
    record = JSON.parse(await readFile(paths.scope, 'utf8')) as ScopeRecord;
    tasks = await readTasks(paths.tasks);
    await removeAllWorktrees(root, paths.worktrees);
    if (!record.worktree && record.in_place !== false) await undoInterruptedTask(root, options.emit);
    // GC rounds an executor made in a worktree that is now gone never landed: count from where it began.
    await updateGcState(paths, new Mutex(), (state) => {
      for (const [layer, rounds] of Object.entries(state.started ?? {})) state.rounds[layer] = rounds;
      delete state.started;
    });
    for (const t of tasks) if (t.status === 'running') t.status = 'pending';
    // tasks.csv may have been edited between runs: its deps must still sort.
    (await import('./waves.js')).assignWaves(tasks);
  } else {
    const dirty = await dirtyFiles(root);
    if (dirty.length) {
      if (!options.allowDirty)
        throw new StartError(
          `the working tree has uncommitted changes (${dirty.slice(0, 3).join(', ')}${dirty.length > 3 ? ', ...' : ''}): commit or stash them, or pass --allow-dirty to start from them as they are (with --in-place: to commit them as a checkpoint first)`,
        );
      // In its own worktree team starts from them as they are; in place they are committed first.
      if (options.inPlace) await repo.commitAll('fixcycle: checkpoint before team testing');
    }
    try {
      ({ id, record, tasks } = await startSession(root, options, runner.name));
    } catch (error) {
      if (!(error instanceof ChoiceCancelled)) throw error;
      options.emit({
        type: 'done',
        outcome: 'interrupted',
        reason: 'quit before the pipeline started: no session was created',
        exitCode: EXIT.interrupted,
        passRate: null,
      });
      return EXIT.interrupted;
    }
  }
  const paths = teamPaths(join(teamRoot(root), id));
  const saveRecord = (): Promise<void> => writeJsonAtomic(paths.scope, record);
  if (!options.continueSession && record.in_place === undefined) {
    record.in_place = Boolean(options.inPlace);
    await saveRecord();
  }
  // The main tree the tasks' commits land in: the session's worktree, or the user's own with --in-place (and for a
  // session begun in place, or before team had worktrees).
  const { work, notes } = await pipelineWorkRepo({
    repo,
    id,
    holder: record,
    isolated: record.in_place === false,
    begun: tasks.some((t) => t.status !== 'pending'),
    who: 'team',
    save: saveRecord,
  });
  const main = work.root;
  if (options.continueSession && main !== root) await undoInterruptedTask(main, options.emit);
  const teamOptions: TeamOptions = {
    concurrency: options.concurrency,
    agentTimeoutMs,
    testTimeoutMs: options.testTimeoutMs ?? 10 * 60_000,
    maxGcRounds: 3,
    maxL0Rounds: 3,
    maxFixIterations: 3,
  };
  const files = new Mutex();
  const ctx: TeamContext = {
    root: main,
    sessionId: id,
    paths,
    record,
    changed: await changedLines(main, record.scope),
    tasks,
    runner: main === root ? runner : await genRunner(main, genLike, config),
    agents,
    options: teamOptions,
    emit: options.emit,
    signal: options.signal,
    mainTree: new Mutex(),
    files,
    loop: {
      agentCmds: options.agentCmds,
      agentNames: options.agentNames,
      runner: options.runner,
      testCmd: options.testCmd,
      agentTimeoutMs: options.agentTimeoutMs,
      testTimeoutMs: options.testTimeoutMs,
    },
    save: () => files.run(() => writeTasks(paths.tasks, tasks)),
  };
  options.emit({
    type: 'session',
    sessionId: id,
    sessionDir: paths.dir,
    repo: root,
    chain: agents.map((a) => a.spec.name),
    testCommand: runner.describe().full.join(' '),
    resumed: Boolean(options.continueSession),
  });
  for (const note of notes) options.emit(note);
  options.emit({
    type: 'team-pipeline',
    sessionId: id,
    pipeline: record.pipeline,
    why: record.pipeline_why,
    stages: PIPELINE_STAGES[record.pipeline],
    alternatives: PIPELINES.filter((p) => p !== record.pipeline).map((p) => `${p} (${PIPELINE_STAGES[p]})`),
    files: record.scope.files.length,
    modules: record.scope.modules,
    acceptedBy: record.accepted_by,
  });
  if (!options.continueSession) {
    const conventions = await readConventions(main, []);
    await addWisdom(
      paths,
      'conventions',
      `tests in ${conventions.locations.join(', ') || '(none yet)'}, named ${conventions.naming}, asserting with ${conventions.assertion_style}, ${conventions.module_system} modules`,
    );
    await appendDiscoveries(paths.discoveries, 'fixcycle', [
      {
        type: 'convention_found',
        data: {
          pattern: conventions.naming,
          example_file: conventions.representative?.file ?? null,
          description: `${conventions.assertion_style}; tests in ${conventions.locations.join(', ') || '(none yet)'}`,
        },
      },
    ]);
  }
  await runWaves(ctx);
  const board = await readBoard(paths.discoveries);
  if (board.malformed)
    options.emit({
      type: 'log',
      level: 'warn',
      message: `discoveries.ndjson: ${board.malformed} malformed line(s) skipped`,
    });
  options.emit({
    type: 'team-discoveries',
    total: board.entries.length,
    malformed: board.malformed,
    latest: board.entries.slice(-5).map((d) => `${d.type} ${d.worker}`),
  });
  if (options.signal.aborted) {
    await finishPipelineWorktree({
      repo,
      processDir: paths.dir,
      holder: record,
      ended: false,
      apply: false,
      who: 'team',
      save: saveRecord,
      emit: options.emit,
    });
    options.emit({
      type: 'done',
      outcome: 'interrupted',
      reason: `stopped; continue with \`fixcycle team --continue ${id}\``,
      exitCode: EXIT.interrupted,
      passRate: null,
    });
    return EXIT.interrupted;
  }
  await writeReport(ctx);
  // What the tasks committed comes back to the user's branch before the end is said.
  await finishPipelineWorktree({
    repo,
    processDir: paths.dir,
    holder: record,
    ended: true,
    apply: options.apply !== false,
    who: 'team',
    save: saveRecord,
    emit: options.emit,
  });
  const failed = tasks.filter((t) => t.status !== 'completed');
  const reason = `${tasks.length - failed.length}/${tasks.length} tasks completed${failed.length ? ` (${failed.map((t) => `${t.id} ${t.status}`).join(', ')})` : ''}; report: ${paths.context}`;
  options.emit({
    type: 'done',
    outcome: failed.length ? 'failure' : 'success',
    reason,
    exitCode: failed.length ? EXIT.failure : EXIT.success,
    passRate: null,
  });
  return failed.length ? EXIT.failure : EXIT.success;
}
