import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { BudgetLimits } from './agents/budget.js';
import { missingProgram } from './agents/available.js';
import { resolveAgents } from './agents/resolve.js';
import { heuristicCriticality } from './criticality/heuristics.js';
import { loadConfig, type FixcycleConfig } from './config.js';
import type { EngineEvent, EventSink } from './events.js';
import { GitSafetyError, Repo } from './git.js';
import type { LoopContext } from './loop/context.js';
import type { BegunRun, LoopPolicies, LoopResult, TestFixLoop } from './loop/loop.js';
import { beginIsolatedSession, reopenIsolatedSession, type PendingIsolation } from './isolation/session-isolation.js';
import { firstRunInPlace } from './first-run-in-place.js';
import { removeSessionWorktree } from './isolation/session-worktree.js';
import type { SessionWorktree } from './isolation/types.js';
import { initialSuiteRun, startSuite } from './loop/suite-start.js';
import { resolveRunner } from './runners/index.js';
import { openRunRepo, type OpenedRepo } from './run-repo.js';
import { followerPresent } from './intents/followers.js';
import { acquireLock } from './session/lock.js';
import { newSessionId } from './session/paths.js';
import { findLatestSession, SessionFiles } from './session/session-files.js';
import { sessionFinish } from './session-finish.js';
import { rememberCommonDir } from './localize/green-commits.js';
import { endedAfterHandBack, fixInFlight, newState, redoLostFix, resumedState } from './session-start-state.js';
import type { RunError } from './types.js';

/** What `fixcycle run` was asked to do. */
export interface StartOptions {
  cwd: string;
  testCmd?: string;
  runner?: string;
  /** --agent-cmd command lines, in fallback order. */
  agentCmds?: string[];
  /** --agent names, in fallback order. */
  agentNames?: string[];
  maxIterations?: number;
  /** --max-degraded: degraded iterations in a row that stop the session. */
  maxDegraded?: number;
  /** --no-localize: no suspects before the analysis. */
  localize?: boolean;
  /** A session id, or `latest`. */
  resumeSession?: string;
  /** Names a new session (`WFS-test-<name>`). */
  sessionName?: string;
  yes: boolean;
  /** Headless: wait at a partial success for a pane's decision even when no pane follows yet. */
  waitApproval?: boolean;
  allowDirty: boolean;
  /**
   * --in-place: the loop works in the user's working tree, committing on their branch (CI, a machine nobody edits
   * on). Default false: a new session works in a worktree of its own (see isolation/), a resumed one where it began.
   */
  inPlace?: boolean;
  /**
   * In place, in a worktree that is the caller's own (gen's): what is uncommitted there was left by the caller's
   * runs, never saved by the user, so it does not stop the start.
   */
  ownTree?: boolean;
  /** --no-apply (false): the fixes of an isolated session stay on its branch instead of coming back. Default true. */
  apply?: boolean;
  interactive: boolean;
  testTimeoutMs?: number;
  agentTimeoutMs?: number;
  /** --update-snapshots: the session was started to update snapshots, so a fix may rewrite them. */
  updateSnapshots?: boolean;
  emit: EventSink;
  /** --budget limits (calls, minutes of agent time, USD); none when absent. */
  budget?: BudgetLimits;
  /** The repository's first git work, when the caller started it already (the CLI does, while modules load). */
  opened?: Promise<OpenedRepo>;
  /** Failures there before the session started (gen measures the suite before generating): the project's own, not fixed. */
  isOwnFailure?: (id: string, name: string) => boolean;
  /** Errors outside tests there before the session started (a lint step failing before gen): the project's own. */
  isOwnError?: (error: RunError) => boolean;
  /** Stops the loop, and the first run that starts before the loop exists (the CLI's Ctrl-C before the loop is built). */
  abort?: AbortController;
  /** Replaces the default policies (cool-downs, plan triggers, the fix guard, the budget); for tests. */
  policies?: (ctx: LoopContext) => LoopPolicies;
}

/** A problem the user can fix before the loop starts; the message names cause and fix. */
export class StartError extends Error {}

export interface PreparedLoop {
  loop: TestFixLoop;
  ctx: LoopContext;
  sessionId: string;
  /** The session's worktree, when the loop runs in one. */
  worktree?: SessionWorktree;
  /** After the loop's run: brings an isolated session's fixes back and removes its worktree once it has ended. */
  finish(result: LoopResult): Promise<void>;
  release(): Promise<void>;
}

const DEFAULT_MAX_ITERATIONS = 10;
/** 10 minutes: a suite slower than this is unusual; --test-timeout raises it. */
const DEFAULT_TEST_TIMEOUT_MS = 10 * 60_000;
/** 40 minutes: the design's CLI analysis timeout. */
const DEFAULT_AGENT_TIMEOUT_MS = 40 * 60_000;

async function sessionIdFor(
  repo: Repo,
  options: StartOptions,
): Promise<{ id: string; resumed: boolean; claimed?: boolean }> {
  if (!options.resumeSession) {
    const base = newSessionId(options.sessionName);
    // A name the user gave stays theirs: the check in prepareLoop says when it is taken.
    if (options.sessionName) return { id: base, resumed: false };
    // Two runs started within one second (a green run ends at once, an editor task runs on save): the later one is
    // numbered, as gen's are. Making the folder is the claim, so two runs starting at the same moment never share one.
    let id = base;
    for (let n = 2; !(await new SessionFiles(repo.root, id).claim()); n++) id = `${base}-${n}`;
    return { id, resumed: false, claimed: true };
  }
  const id =
    options.resumeSession === 'latest'
      ? await findLatestSession(repo.root)
      : options.resumeSession.startsWith('WFS-')
        ? options.resumeSession
        : `WFS-test-${options.resumeSession}`;
  if (!id) throw new StartError('there is no session to resume in this repository: start one with `fixcycle run`');
  if (!(await new SessionFiles(repo.root, id).exists()))
    throw new StartError(`session ${id} does not exist here: list sessions with \`fixcycle status\``);
  return { id, resumed: true };
}

/** Checks git, takes the session lock, resolves runner and agents, and builds the loop (new or resumed). */
export async function prepareLoop(options: StartOptions): Promise<PreparedLoop> {
  // git status runs while the config, the session folder, the lock and the state are worked out.
  const newIsolated = !options.resumeSession && !options.inPlace && !options.agentNames?.includes('manual');
  const { repo, changed, probe } = await (options.opened ?? openRunRepo(options.cwd, { isolated: newIsolated }));
  const config: FixcycleConfig = await loadConfig(repo.root);
  const { id, resumed, claimed } = await sessionIdFor(repo, options);
  const session = new SessionFiles(repo.root, id);
  if (!resumed && (await session.exists())) {
    throw new StartError(
      `session ${id} already exists: resume it with --resume-session ${id}, or pick another --session-name`,
    );
  }
  await session.ensureFolders();
  const lock = await acquireLock(session.paths.lock, id);
  if (typeof lock === 'string') throw new StartError(lock);
  let begun: BegunRun | undefined;
  let writing = false;
  // The repository the loop works in: the session's worktree, or the user's own with --in-place.
  let work = repo;
  let newWorktree: SessionWorktree | undefined;
  // A new isolated session's snapshot and branch, its worktree not made yet.
  let pending: PendingIsolation | undefined;
  try {
    const state = resumed
      ? resumedState(await session.readState(), options.maxIterations, options.budget)
      : newState(id, options.maxIterations ?? config.maxIterations ?? DEFAULT_MAX_ITERATIONS);
    // A session that began in its own worktree goes on there; one that began in place (or before worktrees) too.
    // `--agent manual` is a person fixing in their own tree: that loop works there.
    const isolated = resumed ? Boolean(state.worktree) : newIsolated;
    let notes: EngineEvent[] = [];
    const runnerFor = (root: string) =>
      resolveRunner(root, {
        runner: options.runner ?? config.runner,
        testCmd: options.testCmd ?? config.testCommand,
        ...(config.skipParts ? { skipParts: config.skipParts } : {}),
      });
    // A new isolated session's first run is in the user's tree: its runner is found while git takes the snapshot.
    let early: Promise<Awaited<ReturnType<typeof runnerFor>>> | undefined;
    if (isolated && !state.worktree) {
      early = runnerFor(repo.root);
      early.catch(() => undefined);
    }
    const ended = isolated && state.worktree ? endedAfterHandBack(state, existsSync(state.worktree.dir)) : null;
    if (ended) {
      notes = [ended];
    } else if (isolated && state.worktree) {
      const made = await reopenIsolatedSession(repo, state.worktree, state.iterations.length > 0);
      if (made.recreated) redoLostFix(state);
      ({ work, notes } = made);
      state.worktree = made.record;
    } else if (isolated) {
      // The worktree is made when the first run, in the user's tree, finds work to do (first-run-in-place.ts).
      pending = await beginIsolatedSession(repo, id, changed, probe);
      rememberCommonDir(repo.root, pending.commonDir);
      newWorktree = pending.record;
      state.worktree = pending.record;
      notes = [
        ...pending.notes,
        {
          type: 'log',
          level: 'info',
          message: `the first run is your test command in your tree, which fixcycle does not write; fixes, if any are needed, are made in a worktree of their own on ${pending.record.branch}`,
        },
      ];
    } else {
      const files = (await changed).filter(() => !options.ownTree);
      if (files.length > 0) {
        if (resumed && fixInFlight(state)) {
          // Keep the agent's half-done fix: the resumed fix step builds on it, or the re-test measures it.
        } else if (options.allowDirty) {
          const sha = await repo.commitAll(`fixcycle: checkpoint before test-fix session ${id}`);
          if (sha)
            options.emit({
              type: 'log',
              level: 'info',
              message: `committed your uncommitted changes as a checkpoint (${sha.slice(0, 7)})`,
            });
        } else {
          throw new StartError(
            `the working tree has uncommitted changes (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''}): commit or stash them, pass --allow-dirty to commit them as a checkpoint first, or drop --in-place so the loop works on a snapshot of them in its own worktree`,
          );
        }
      }
    }
    const runner = await (early ?? runnerFor(work.root));
    // The built-in AI-CLI adapters register themselves; a plain --agent-cmd does not need them.
    if (!options.agentCmds?.length) await import('./agents/adapters/index.js');
    const agentTimeoutMs =
      options.agentTimeoutMs ?? (config.agentTimeoutSec ? config.agentTimeoutSec * 1000 : DEFAULT_AGENT_TIMEOUT_MS);
    const resolved = resolveAgents(
      { agentCmds: options.agentCmds, agentNames: options.agentNames, timeoutMs: agentTimeoutMs },
      config,
    );
    const missing = resolved.map((agent) => missingProgram(agent, work.root));
    const agents = resolved.filter((_, i) => !missing[i]);
    if (agents.length === 0) {
      throw new StartError(
        `no agent can start: ${missing.filter(Boolean).join('; ')}: install it, pass --agent-cmd "<command>", or use --agent manual`,
      );
    }
    for (const why of missing)
      if (why) options.emit({ type: 'log', level: 'warn', message: `${why}; the chain goes on without it` });
    // A new session's first files are written while its first test run starts; the run waits for them before it
    // records anything (see runSuite), so a stop at any point still leaves a session that resumes or none.
    writing = true;
    const written = resumed
      ? undefined
      : Promise.all([
          session.saveWorkflowSession({
            session_id: id,
            workflow_type: 'test-fix',
            created_at: state.started_at,
            repository: repo.root,
            created_by: 'fixcycle',
            test_runner: runner.name,
            agents: agents.map((a) => a.spec.name),
          }),
          // Once the session's branch is made: a state naming it resumes there.
          (pending?.ready ?? Promise.resolve()).then(() => session.saveState(state)),
        ]).then(() => undefined);
    written?.catch(() => undefined);
    const end = sessionFinish({
      repo,
      session,
      record: state.worktree,
      apply: options.apply !== false,
      worktreeMade: () => !pending || pending.materialized(),
      emit: options.emit,
    });
    const ctx: LoopContext = {
      repo: work,
      session,
      runner,
      agents,
      config,
      emit: end.emit,
      heuristic: heuristicCriticality,
      ...(state.worktree && state.worktree.snapshot !== state.worktree.base
        ? { startedFrom: state.worktree.base }
        : {}),
      ...(written ? { sessionWritten: written } : {}),
      options: {
        maxIterations: state.max_iterations,
        testTimeoutMs:
          options.testTimeoutMs ?? (config.testTimeoutSec ? config.testTimeoutSec * 1000 : DEFAULT_TEST_TIMEOUT_MS),
        agentTimeoutMs,
        autoApprove: options.yes,
        waitForDecision: async () => Boolean(options.waitApproval) || (await followerPresent(repo.root)),
        interactive: options.interactive,
        flakyReruns: config.flakyReruns ?? 1,
        maxDegraded: options.maxDegraded ?? config.maxDegraded,
        updateSnapshots: options.updateSnapshots ?? false,
        localize: options.localize ?? true,
        inPlace: !state.worktree,
        ...(options.isOwnFailure ? { isOwnFailure: options.isOwnFailure } : {}),
        ...(options.isOwnError ? { isOwnError: options.isOwnError } : {}),
      },
    };
    const described = runner.describe();
    options.emit({
      type: 'session',
      sessionId: id,
      sessionDir: session.paths.dir,
      repo: repo.root,
      chain: agents.map((a) => a.spec.name),
      testCommand: described.full.join(' '),
      resumed,
      ...(options.budget ? { budget: options.budget } : {}),
    });
    for (const note of notes) options.emit(note);
    // A new session's first run starts now, and the loop's modules load while it runs: a suite that passes
    // at once then costs little more than the test command itself.
    if (!resumed) {
      const abort = options.abort ?? new AbortController();
      options.emit({ type: 'state', state: structuredClone(state) });
      const first = initialSuiteRun(abort.signal);
      begun = {
        suite: pending ? firstRunInPlace(ctx, first, pending, runnerFor, options.emit) : startSuite(ctx, first),
        abort,
      };
      // Headless, they load once the test command printed: its start-up is over and the compile no longer slows
      // it. A TUI loads now: its first frame comes before anything else.
      if (!options.interactive) await begun.suite.then((suite) => suite.printed);
    }
    const [{ TestFixLoop: Loop }, policies] = await Promise.all([
      import('./loop/loop.js'),
      options.policies ? null : import('./agents/policies.js'),
    ]);
    const loop = new Loop(
      ctx,
      state,
      options.policies?.(ctx) ?? policies!.agentPolicies(ctx, { budget: options.budget }),
      begun,
    );
    return {
      loop,
      ctx,
      sessionId: id,
      ...(state.worktree ? { worktree: state.worktree } : {}),
      finish: end.finish,
      release: () => lock.release(),
    };
  } catch (error) {
    if (begun) {
      begun.abort.abort();
      await begun.suite.then((s) => s.testRun).catch(() => undefined);
    }
    await pending?.release();
    if (newWorktree) await removeSessionWorktree(repo.root, newWorktree.dir, newWorktree.branch, false);
    await lock.release();
    // A start refused before it wrote anything (a dirty tree, no agent) leaves no empty session behind.
    if (claimed && !writing) await rm(session.paths.dir, { recursive: true, force: true });
    throw error;
  }
}

export { GitSafetyError };
