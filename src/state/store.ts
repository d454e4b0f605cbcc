import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  PHASES,
  type AgentClassification,
  type EngineEvent,
  type Outcome,
  type Phase,
  type PhaseStatus,
} from '../engine/events.js';
import type { BudgetLimits } from '../engine/agents/budget.js';
import type { IterationState } from '../engine/session/schema.js';
import type { Failure, Strategy, TestResults } from '../engine/types.js';
import type { Localization, Suspect } from '../engine/localize/types.js';
import { formatActivity } from '../engine/agents/activity-line.js';
import { RingBuffer } from './ring-buffer.js';
import type { CoverageLine, GenNode } from '../engine/gen/events.js';
import type { TeamChoice } from '../engine/team/events.js';

/** One node of the gen phase tree (phases 1-5, IMPL-001/001.3/001.5/002). */
export interface GenNodeView {
  status: PhaseStatus;
  detail?: string;
  round?: number;
  findings?: string[];
}

/** 20,000 lines: a few screens of scroll-back for any pane size; the full log stays on disk. */
export const OUTPUT_CAPACITY = 20_000;
/** 33 ms: at most 30 output re-renders per second, whatever the runner prints. */
export const OUTPUT_FLUSH_MS = 33;

export interface PhaseView {
  status: PhaseStatus;
  detail?: string;
}

export interface AgentActivity {
  agent: string;
  role: 'analyze' | 'fix' | 'generate';
  status: 'started' | 'finished';
  classification?: AgentClassification;
  detail?: string;
  iteration: number;
}

/** Tokens and cost the CLIs reported, added up over an iteration's agent calls. */
export interface Usage {
  tokens?: number;
  costUsd?: number;
}

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** The session as the views see it: a mirror of iteration-state.json plus what is live. */
export interface SessionView {
  sessionId: string | null;
  sessionDir: string | null;
  repo: string | null;
  chain: string[];
  testCommand: string;
  startedAt: number;
  state: IterationState | null;
  phases: Record<Phase, PhaseView>;
  phaseIteration: number;
  results: TestResults | null;
  strategy: { strategy: Strategy; reason: string; iteration: number } | null;
  agent: AgentActivity | null;
  /** Agents that failed in the current iteration, with why, for the fallback display. */
  agentFailures: { agent: string; classification: AgentClassification; detail?: string }[];
  /** What each iteration's agent calls used, by iteration number, where the CLIs reported it. */
  usage: Record<number, Usage>;
  /** `--budget`'s limits of the run driven here; null without one, and in watch (the session does not record them). */
  budget: BudgetLimits | null;
  stuckTests: string[];
  /** The suspects ranked for the current failures (none before the first analysis, or with --no-localize). */
  suspects: Suspect[];
  /** What the ranking of `suspects` rested on (evidence used, why the rest was not), and for which iteration. */
  localization: (Omit<Localization, 'suspects'> & { iteration: number }) | null;
  awaitingApproval: { passRate: number; failures: Failure[] } | null;
  paused: boolean;
  outputLabel: string;
  /** Bumped (throttled) when output lines arrive; the lines are in `output`. */
  outputVersion: number;
  logs: LogEntry[];
  /** fixcycle is waiting out an agent's rate limit: the countdown runs to `untilMs`. */
  waiting: { agent: string; untilMs: number; reason: string } | null;
  done: { outcome: Outcome; reason: string; exitCode: number; passRate: number | null; reportPath?: string } | null;
  /** Where a session's fixes (its commits, for gen and team) went at its end: the user's branch, or waiting. */
  handback: Omit<Extract<EngineEvent, { type: 'handback' }>, 'type'> | null;
  /** The gen pipeline's nodes, when `fixcycle gen` drives the session; null for `run`. */
  gen: Partial<Record<GenNode, GenNodeView>> | null;
  genCoverage: { files: CoverageLine[]; measured: boolean; reason?: string } | null;
  /** `fixcycle team`: each task's latest transition, and the coverage of each layer (empty otherwise). */
  teamTasks: Record<string, { role: string; layer: string; wave: number; status: string; detail?: string }>;
  teamCoverage: Record<string, { round: number; passRate: number; coverage: number | null; target: number }>;
  teamBoard: { total: number; malformed: number; latest: string[] } | null;
  /** `fixcycle team` waiting for the pipeline to be accepted or switched; null once it runs. */
  teamChoice: TeamChoice | null;
}

export interface FixcycleStore extends SessionView {
  /** Lines of the running step, newest last. Not reactive: watch `outputVersion`. */
  output: RingBuffer;
  apply(event: EngineEvent): void;
}

const LOG_LIMIT = 200;

function addUsage(sofar: Usage | undefined, call: Usage): Usage {
  const add = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined ? b : b === undefined ? a : a + b;
  const tokens = add(sofar?.tokens, call.tokens);
  const costUsd = add(sofar?.costUsd, call.costUsd);
  return { ...(tokens !== undefined ? { tokens } : {}), ...(costUsd !== undefined ? { costUsd } : {}) };
}

function initialPhases(): Record<Phase, PhaseView> {
  return Object.fromEntries(PHASES.map((p) => [p, { status: 'pending' as PhaseStatus }])) as Record<Phase, PhaseView>;
}

export function createFixcycleStore(
  options: { outputCapacity?: number; flushMs?: number } = {},
): StoreApi<FixcycleStore> {
  const output = new RingBuffer(options.outputCapacity ?? OUTPUT_CAPACITY);
  const flushMs = options.flushMs ?? OUTPUT_FLUSH_MS;
  let flushTimer: ReturnType<typeof setTimeout> | null = null;

  return createStore<FixcycleStore>()((set, get) => {
    const scheduleFlush = (): void => {
      if (flushTimer) return;
      flushTimer = setTimeout(() => {
        flushTimer = null;
        set((s) => ({ outputVersion: s.outputVersion + 1 }));
      }, flushMs);
      flushTimer.unref?.();
    };

    const apply = (event: EngineEvent): void => {
      switch (event.type) {
        case 'session':
          set({
            sessionId: event.sessionId,
            sessionDir: event.sessionDir,
            repo: event.repo,
            chain: event.chain,
            testCommand: event.testCommand,
            budget: event.budget ?? null,
            done: null,
            handback: null,
          });
          return;
        case 'state':
          set({
            state: event.state,
            stuckTests: event.state.stuck_tests,
            paused: event.state.status === 'paused' ? true : get().paused,
            ...leftStates(get(), event.state),
          });
          return;
        case 'phase': {
          const phases = { ...get().phases };
          // A new iteration starts its steps afresh; the initial test run stays done.
          if (event.iteration !== get().phaseIteration && event.phase === 'analysis') {
            for (const p of ['analysis', 'fix', 'retest'] as Phase[]) phases[p] = { status: 'pending' };
          }
          phases[event.phase] = { status: event.status, detail: event.detail };
          set({
            phases,
            phaseIteration: event.iteration,
            agentFailures: event.phase === 'analysis' && event.status === 'running' ? [] : get().agentFailures,
          });
          return;
        }
        case 'output':
          output.pushAll(event.lines);
          scheduleFlush();
          return;
        case 'output-reset':
          output.push(`── ${event.label} ──`);
          set((s) => ({ outputLabel: event.label, outputVersion: s.outputVersion + 1 }));
          return;
        case 'results':
          set({ results: event.results, suspects: [], localization: null });
          return;
        case 'suspects': {
          const { suspects, ...rest } = event.localization;
          set({ suspects, localization: { ...rest, iteration: event.iteration } });
          return;
        }
        case 'strategy':
          set({ strategy: { strategy: event.strategy, reason: event.reason, iteration: event.iteration } });
          return;
        case 'agent': {
          const activity: AgentActivity = {
            agent: event.agent,
            role: event.role,
            status: event.status,
            classification: event.classification,
            detail: event.detail,
            iteration: event.iteration,
          };
          const failed = event.status === 'finished' && event.classification && event.classification !== 'ok';
          set((s) => ({
            agent: activity,
            agentFailures: failed
              ? [
                  ...s.agentFailures,
                  { agent: event.agent, classification: event.classification!, detail: event.detail },
                ]
              : s.agentFailures,
            usage:
              event.tokens === undefined && event.costUsd === undefined
                ? s.usage
                : { ...s.usage, [event.iteration]: addUsage(s.usage[event.iteration], event) },
          }));
          return;
        }
        case 'agent-activity':
          // Tokens arrive with the finished call; the pane shows what the agent does.
          if (event.activity.kind === 'usage') return;
          output.push(`${event.agent}: ${formatActivity(event.activity)}`);
          scheduleFlush();
          return;
        case 'stuck':
          set({ stuckTests: event.tests });
          return;
        case 'await-approval':
          set({ awaitingApproval: { passRate: event.passRate, failures: event.failures } });
          return;
        case 'paused':
          set({ paused: event.paused });
          return;
        case 'commit':
        case 'rollback':
        case 'log': {
          const entry: LogEntry =
            event.type === 'log'
              ? { level: event.level, message: event.message }
              : event.type === 'commit'
                ? { level: 'info', message: `committed ${event.sha.slice(0, 7)} ${event.message}` }
                : { level: 'warn', message: `rolled back ${event.sha.slice(0, 7)}: ${event.reason}` };
          set((s) => ({ logs: [...s.logs.slice(-(LOG_LIMIT - 1)), entry] }));
          // A rollback answers a pending approval question: the loop goes on.
          if (event.type === 'rollback') set({ awaitingApproval: null });
          return;
        }
        case 'wait':
          set({
            waiting:
              event.untilMs === null ? null : { agent: event.agent, untilMs: event.untilMs, reason: event.reason },
          });
          return;
        case 'gen':
          set((s) => ({
            gen: {
              ...s.gen,
              [event.node]: {
                status: event.status,
                detail: event.detail,
                round: event.round,
                findings: event.findings,
              },
            },
          }));
          return;
        case 'gen-coverage':
          set({ genCoverage: { files: event.files, measured: event.measured, reason: event.reason } });
          return;
        case 'team-task':
          set((s) => ({
            teamTasks: {
              ...s.teamTasks,
              [event.id]: {
                role: event.role,
                layer: event.layer,
                wave: event.wave,
                status: event.status,
                detail: event.detail,
              },
            },
          }));
          return;
        case 'team-coverage':
          set((s) => ({
            teamCoverage: {
              ...s.teamCoverage,
              [event.layer]: {
                round: event.round,
                passRate: event.passRate,
                coverage: event.coverage,
                target: event.target,
              },
            },
          }));
          return;
        case 'team-discoveries':
          set({ teamBoard: { total: event.total, malformed: event.malformed, latest: event.latest } });
          return;
        case 'team-choice': {
          const { type: _type, ...choice } = event;
          set({ teamChoice: choice });
          return;
        }
        case 'team-pipeline':
          set({ teamChoice: null });
          return;
        case 'team-wave':
          return;
        case 'handback': {
          const { type: _type, ...handback } = event;
          set({ handback });
          return;
        }
        case 'done':
          set({
            waiting: null,
            done: {
              outcome: event.outcome,
              reason: event.reason,
              exitCode: event.exitCode,
              passRate: event.passRate,
              reportPath: event.reportPath,
            },
            awaitingApproval: event.outcome === 'awaiting_approval' ? get().awaitingApproval : null,
          });
          return;
      }
    };

    return { ...initialView(), output, apply };
  });
}

/**
 * What a new state says the session has left, for the screen to drop at once: the approval question once the
 * state no longer awaits approval (a rollback or approval from a pane, a resume), the completion step it
 * held at, and an outcome a resumed session (active again) no longer has.
 */
function leftStates(view: SessionView, state: IterationState): Partial<SessionView> {
  const left: Partial<SessionView> = {};
  if (state.status === 'awaiting_approval') return left;
  if (view.awaitingApproval) left.awaitingApproval = null;
  const reopened = state.status === 'active' || state.status === 'paused';
  if (reopened && view.done) left.done = null;
  // A validation still running belongs to the state to come; one that ended belongs to the outcome left.
  const ended = (p: PhaseView) => p.status !== 'pending' && p.status !== 'running';
  const { validation, completion } = view.phases;
  if (reopened && (ended(validation) || completion.status !== 'pending'))
    left.phases = {
      ...view.phases,
      validation: ended(validation) ? { status: 'pending' } : validation,
      completion: { status: 'pending' },
    };
  return left;
}

/** A store's session fields before any event: what a pane shows again when it switches to another session. */
export function initialView(): SessionView {
  return {
    gen: null,
    genCoverage: null,
    teamTasks: {},
    teamCoverage: {},
    teamBoard: null,
    teamChoice: null,
    sessionId: null,
    sessionDir: null,
    repo: null,
    chain: [],
    testCommand: '',
    startedAt: Date.now(),
    state: null,
    phases: initialPhases(),
    phaseIteration: 0,
    results: null,
    strategy: null,
    agent: null,
    agentFailures: [],
    usage: {},
    budget: null,
    stuckTests: [],
    suspects: [],
    localization: null,
    awaitingApproval: null,
    paused: false,
    outputLabel: '',
    outputVersion: 0,
    logs: [],
    waiting: null,
    done: null,
    handback: null,
  };
}
