import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { Repo } from '../git.js';
import { EXIT, type LoopResult } from '../loop/loop.js';
import { writeJsonAtomic } from '../session/atomic.js';
import { acquireLock } from '../session/lock.js';
import { newSessionId } from '../session/paths.js';
import { SessionFiles } from '../session/session-files.js';
import { StartError } from '../start.js';
import { node, type GenContext, type GenOptions } from './gen-context.js';
import { readGenInput, type GenInput } from './input.js';
import { analyse, GenPhaseError } from './phase-analysis.js';
import { gatherContext } from './phase-context.js';
import { generateTasks } from './phase-tasks.js';
import { genAgents, genHooks, genRunner } from './setup.js';
import { finishPipelineWorktree, pipelineWorkRepo } from '../isolation/pipeline-worktree.js';
import { newGenState, readGenState, saveGenState, type GenState } from './state.js';
import { generateRound } from './step-generate.js';
import { commitKept, runFixLoop } from './step-fix.js';
import { settleAfterFix } from './step-settle.js';
import { qualityGate } from './step-quality.js';
import { validateRound } from './step-validate.js';
import { writeGenSummary } from './summary.js';
import type { GenRunOptions } from './run-options.js';
import { mutantJournal } from './mutation/check-mutants.js';
import { restoreLeftMutant } from './mutation/with-mutant.js';

export type { GenRunOptions } from './run-options.js';

const DEFAULT_TEST_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_AGENT_TIMEOUT_MS = 40 * 60_000;

function slugOf(input: GenInput): string {
  const words = (input.sourceSessionId ?? input.description)
    .replace(/^WFS-/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .split('-')
    .filter((w) => w.length > 2)
    .slice(0, 4);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(4, 13).replace('T', '');
  return `${words.join('-') || 'change'}-${stamp}`;
}

/** Is this session folder a gen session (it has gen-state.json)? */
export function isGenSession(repoRoot: string, id: string): boolean {
  return existsSync(join(new SessionFiles(repoRoot, id).paths.processDir, 'gen-state.json'));
}

async function dirtyTreeError(repo: Repo): Promise<StartError> {
  const files = await repo.changedFiles();
  return new StartError(
    `the working tree has uncommitted changes (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''}): commit or stash them, or pass --allow-dirty to commit them as a checkpoint first`,
  );
}

/**
 * `fixcycle gen`: phases 1-5, resumable after any stop from gen-state.json. Returns the exit code. Its `done` is
 * held until the end (after the fix loop's, gen settles and hands its commits back): it stays the last event.
 */
export async function runGen(options: GenRunOptions): Promise<number> {
  const held: Parameters<GenRunOptions['emit']>[0][] = [];
  try {
    return await genSession({
      ...options,
      emit: (event) => (event.type === 'done' ? held.push(event) : options.emit(event)),
    });
  } finally {
    for (const event of held.splice(0)) options.emit(event);
  }
}

async function genSession(options: GenRunOptions): Promise<number> {
  const repo = await Repo.open(options.cwd);
  // First: the session checks below must see the sessions kept in the git directory, behind the link.
  await repo.excludeSessionFolder({ link: true });
  const config = await loadConfig(repo.root);
  let input: GenInput | null = null;
  let id: string;
  if (options.resumeSession) {
    id = options.resumeSession;
    if (!isGenSession(repo.root, id))
      throw new StartError(
        `session ${id} is not a gen session: resume it with \`fixcycle run --resume-session ${id}\``,
      );
  } else {
    input = await readGenInput(repo.root, options.input);
    // Refused before the session folder is claimed, so a refusal leaves nothing behind.
    if (!options.allowDirty && (await repo.isDirty())) throw await dirtyTreeError(repo);
    id = newSessionId(options.sessionName ?? slugOf(input));
    if (options.sessionName) {
      if (existsSync(new SessionFiles(repo.root, id).paths.dir))
        throw new StartError(
          `session ${id} already exists: resume it with \`fixcycle run --resume-session ${id}\`, or pick another --session-name`,
        );
    } else {
      // Two gen runs in the same minute get the same name from the input: the later one gets a number. Making the
      // folder is the claim, so two started at the same moment never share one.
      for (let n = 2; !(await new SessionFiles(repo.root, id).claim()); n++) id = newSessionId(`${slugOf(input)}-${n}`);
    }
  }
  const session = new SessionFiles(repo.root, id);
  const resumed = Boolean(options.resumeSession);
  // In its own worktree gen starts from the user's uncommitted files as they are; in place they are committed first.
  if (!resumed && options.allowDirty && options.inPlace && (await repo.isDirty()))
    await repo.commitAll(`fixcycle: checkpoint before test generation session ${id}`);
  await session.ensureFolders();
  const lock = await acquireLock(session.paths.lock, id);
  if (typeof lock === 'string') throw new StartError(lock);
  let released = false;
  const release = async (): Promise<void> => {
    if (!released) await lock.release();
    released = true;
  };
  try {
    const saved = await readGenState(session.paths.dir);
    const state: GenState = saved ?? newGenState(id, options.planOnly, input?.raw ?? null);
    // Saved before phase 1 starts: a session stopped at any point after its folder exists can be resumed.
    if (!saved) {
      state.in_place = Boolean(options.inPlace);
      await saveGenState(session.paths.dir, state);
    }
    if (resumed) state.plan_only = false;
    if (!state.settings)
      state.settings = {
        coverage_lines: options.coverageLines,
        coverage_branches: options.coverageBranches,
        layers: options.layers,
        keep_redundant: options.keepRedundant,
      };
    const settings = state.settings;
    const save = (): Promise<void> => saveGenState(session.paths.dir, state);
    // A session begun in place (or before gen had worktrees) goes on in place.
    const { work, notes } = await pipelineWorkRepo({
      repo,
      id,
      holder: state,
      isolated: state.in_place === false,
      begun: state.phases_done.length > 0,
      who: 'gen',
      save,
    });
    const finishWorktree = () =>
      finishPipelineWorktree({
        repo,
        processDir: session.paths.processDir,
        holder: state,
        ended: state.step === 'done',
        apply: options.apply !== false,
        who: 'gen',
        save,
        emit: options.emit,
      });
    const runner = await genRunner(work.root, options, config);
    const agentTimeoutMs =
      options.agentTimeoutMs ?? (config.agentTimeoutSec ? config.agentTimeoutSec * 1000 : DEFAULT_AGENT_TIMEOUT_MS);
    const agents = await genAgents(work.root, options, config, options.emit, agentTimeoutMs);
    const { hooks, budget } = genHooks(session, options);
    const genOptions: GenOptions = {
      coverageLines: settings.coverage_lines,
      coverageBranches: settings.coverage_branches,
      layers: settings.layers,
      keepRedundant: settings.keep_redundant,
      planOnly: options.planOnly,
      maxIterations: options.maxIterations ?? config.maxIterations ?? 10,
      testTimeoutMs:
        options.testTimeoutMs ?? (config.testTimeoutSec ? config.testTimeoutSec * 1000 : DEFAULT_TEST_TIMEOUT_MS),
      agentTimeoutMs,
      stabilityRuns: 5,
      maxL0Rounds: 3,
      maxCoverageRounds: 1,
    };
    const ctx: GenContext = {
      repo: work,
      session,
      runner,
      agents,
      config,
      options: genOptions,
      state,
      emit: options.emit,
      hooks,
      signal: options.signal,
      save,
    };
    options.emit({
      type: 'session',
      sessionId: id,
      sessionDir: session.paths.dir,
      repo: repo.root,
      chain: agents.map((a) => a.spec.name),
      testCommand: runner.describe().full.join(' '),
      resumed,
    });
    for (const note of notes) options.emit(note);
    const done = new Set(state.phases_done);
    for (const n of ['session', 'context', 'analysis', 'tasks'] as const)
      if (done.has(n)) node(ctx, n, 'done', 'done earlier (resumed)');
    const finish = async (phase: GenState['phases_done'][number]): Promise<void> => {
      state.phases_done = [...new Set([...state.phases_done, phase])];
      await ctx.save();
    };
    if (!done.has('session')) {
      input ??= await readGenInput(repo.root, state.input ?? undefined);
      node(ctx, 'session', 'running', id);
      await writeJsonAtomic(session.paths.workflowSession, {
        session_id: id,
        type: 'test',
        workflow_type: 'test-fix',
        input_mode: input.mode,
        input: input.raw,
        description: input.description,
        source_session_id: input.sourceSessionId,
        created_at: new Date().toISOString(),
        repository: repo.root,
        created_by: 'fixcycle',
        test_runner: runner.name,
        agents: agents.map((a) => a.spec.name),
      });
      await finish('session');
      node(
        ctx,
        'session',
        'done',
        `${id} (${input.mode} mode${input.sourceSessionId ? ` from ${input.sourceSessionId}` : ''})`,
      );
    }
    if (!done.has('context')) {
      await gatherContext(ctx, input ?? (await inputAgain(repo.root, session.paths.dir)));
      await finish('context');
    }
    if (options.signal.aborted) return EXIT.interrupted;
    if (!done.has('analysis')) {
      if (budget.exceeded()) throw new GenPhaseError(`stopped: ${budget.exceeded()}; resume with a larger --budget`);
      await analyse(ctx);
      await finish('analysis');
    }
    if (options.signal.aborted) return EXIT.interrupted;
    if (!done.has('tasks')) {
      const summary = await generateTasks(ctx);
      await finish('tasks');
      options.emit({ type: 'log', level: 'info', message: summary });
    }
    if (state.plan_only) {
      node(ctx, 'execution', 'pending', `--plan-only: continue with \`fixcycle run --resume-session ${id}\``);
      options.emit({
        type: 'done',
        outcome: 'interrupted',
        reason: `plan written (--plan-only); continue with \`fixcycle run --resume-session ${id}\``,
        exitCode: EXIT.success,
        passRate: null,
      });
      await finishWorktree();
      return EXIT.success;
    }
    const code = await execute(ctx, options, release);
    await finishWorktree();
    return code;
  } finally {
    await release();
  }
}

/** A resumed session lost its input before phase 2 finished: read it back from workflow-session.json. */
async function inputAgain(root: string, dir: string): Promise<GenInput> {
  const { readFile } = await import('node:fs/promises');
  const meta = JSON.parse(await readFile(join(dir, 'workflow-session.json'), 'utf8')) as { input: string | null };
  return readGenInput(root, meta.input ?? undefined);
}

/**
 * Phase 5: IMPL-001 -> IMPL-001.3 -> IMPL-001.5 (rounds as the gates decide) -> commit -> IMPL-002 -> (settle, when
 * the loop did not succeed) -> summary.
 */
async function execute(ctx: GenContext, options: GenRunOptions, release: () => Promise<void>): Promise<number> {
  const { state } = ctx;
  // A gen killed during a mutant run left the mutant in the module: the original goes back before anything runs.
  const restored = restoreLeftMutant(mutantJournal(ctx.session.paths.dir));
  if (restored)
    ctx.emit({ type: 'log', level: 'info', message: `put back ${restored}: a stopped mutant run left it changed` });
  node(ctx, 'execution', 'running', `from ${state.step}`);
  let loop: LoopResult | null = null;
  while (!options.signal.aborted) {
    switch (state.step) {
      case 'generate':
        await generateRound(ctx);
        break;
      case 'validate':
        await validateRound(ctx);
        break;
      case 'quality':
        await qualityGate(ctx);
        break;
      case 'commit':
        await commitKept(ctx);
        break;
      case 'fix':
        loop = await runFixLoop(ctx, options, release);
        await ctx.save();
        if (state.step === 'fix') return loop.exitCode;
        break;
      case 'settle':
        await settleAfterFix(ctx);
        // How gen ends is the settled outcome's, not the loop's.
        loop = null;
        break;
      case 'summary': {
        const path = await writeGenSummary(ctx);
        state.step = 'done';
        await ctx.save();
        ctx.emit({ type: 'log', level: 'info', message: `summary: ${path}` });
        break;
      }
      case 'done':
        node(ctx, 'execution', 'done', state.outcome ?? 'finished');
        return (
          loop?.exitCode ??
          (state.outcome?.startsWith('success') || state.outcome?.startsWith('partial') ? EXIT.success : EXIT.failure)
        );
    }
  }
  return EXIT.interrupted;
}
