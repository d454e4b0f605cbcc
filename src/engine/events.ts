import type { AgentActivity } from './agents/agent.js';
import type { BudgetLimits } from './agents/budget.js';
import type { GenEvent } from './gen/events.js';
import type { TeamEvent } from './team/events.js';
import type { IterationState } from './session/schema.js';
import type { Failure, Strategy, TestResults } from './types.js';
import type { Localization } from './localize/types.js';
import type { AgentClassification } from './agents/classification.js';

/** The steps of the pipeline, in the order the phase tree shows them. */
export const PHASES = ['test', 'analysis', 'fix', 'retest', 'validation', 'completion'] as const;
export type Phase = (typeof PHASES)[number];
export type PhaseStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export type Outcome = 'success' | 'partial_success' | 'awaiting_approval' | 'failure' | 'interrupted' | 'error';

export type { AgentClassification } from './agents/classification.js';

/** Everything the engine reports; the store applies these, the headless reporter prints them. */
export type EngineEvent =
  | {
      type: 'session';
      sessionId: string;
      sessionDir: string;
      repo: string;
      chain: string[];
      testCommand: string;
      resumed: boolean;
      /** `--budget`'s limits, for the screen to show the spending against; absent without one. */
      budget?: BudgetLimits;
    }
  | { type: 'state'; state: IterationState }
  | { type: 'phase'; phase: Phase; status: PhaseStatus; iteration: number; detail?: string }
  | { type: 'output'; lines: string[] }
  | { type: 'output-reset'; label: string }
  | { type: 'results'; iteration: number; results: TestResults }
  | { type: 'strategy'; iteration: number; strategy: Strategy; reason: string }
  | {
      type: 'agent';
      iteration: number;
      agent: string;
      role: 'analyze' | 'fix' | 'generate';
      status: 'started' | 'finished';
      classification?: AgentClassification;
      detail?: string;
      durationMs?: number;
      tokens?: number;
      costUsd?: number;
    }
  /** What a running agent is doing, read from its CLI's streamed events; paths relative to the repository. */
  | {
      type: 'agent-activity';
      iteration: number;
      agent: string;
      role: 'analyze' | 'fix' | 'generate';
      activity: AgentActivity;
    }
  | { type: 'commit'; iteration: number; sha: string; message: string; files: string[] }
  | { type: 'rollback'; iteration: number; sha: string; message: string; reason: string }
  | { type: 'stuck'; iteration: number; tests: string[] }
  /** The code locations ranked before the analysis (not with --no-localize). */
  | { type: 'suspects'; iteration: number; localization: Localization }
  | { type: 'await-approval'; passRate: number; failures: Failure[] }
  | { type: 'paused'; paused: boolean }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  /** fixcycle waits out an agent's rate limit (`untilMs` epoch ms), or the wait ended (`untilMs` null). */
  | { type: 'wait'; iteration: number; agent: string; untilMs: number | null; waitMs?: number; reason: string }
  /**
   * A session that ran in its own worktree ended with fixes: brought to the user's branch (applied), or waiting on
   * the session's branch (`command` takes them).
   */
  | {
      type: 'handback';
      status: 'applied' | 'waiting' | 'conflict' | 'nothing';
      branch: string;
      commits: number;
      command?: string;
      reason?: string;
    }
  | { type: 'done'; outcome: Outcome; reason: string; exitCode: number; passRate: number | null; reportPath?: string }
  | GenEvent
  | TeamEvent;

export type EventSink = (event: EngineEvent) => void;

/** What a user can ask of a running loop (keys in the TUI, signals headless). */
export interface LoopControls {
  /** True when the loop runs in another process (a pane's keys become intents): the screen says "sent", not "done". */
  readonly remote?: boolean;
  /** Approves a partial success that is awaiting approval. Returns why not when it cannot. */
  approve(): string | null;
  /** Rolls back the last committed iteration after the current step. */
  requestRollback(): string | null;
  /** Pauses after the current step, or resumes. Returns the new paused state. */
  togglePause(): boolean;
  /** Stops now: the running step (its agent or test run) is cancelled; the session stays resumable. */
  stop(): void;
  /** Gives the loop one more iteration (+1) or one fewer (-1) while it runs; the session records the new max. Returns why not. */
  changeMaxIterations?(delta: 1 | -1): string | null;
  /**
   * Brings the fixes waiting on the ended session's branch to the user's branch (the hand-back, as at a success);
   * it runs on in the background and says how it went by a `handback` event. Returns why not.
   */
  takeFixes?(): string | null;
  /** Why no key can reach the loop now (a watched session nothing drives), with the command that acts instead; null when keys reach it. */
  unreachable?(): string | null;
  /** `fixcycle team` before it starts: offers another pipeline. Returns why not when it cannot. */
  choosePipeline?(name: string): string | null;
  /** `fixcycle team` before it starts: starts the pipeline offered. Returns why not when it cannot. */
  startPipeline?(): string | null;
}
