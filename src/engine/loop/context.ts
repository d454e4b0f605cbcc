import type { FixcycleConfig } from '../config.js';
import type { EventSink } from '../events.js';
import type { Repo } from '../git.js';
import type { ResolvedAgent } from '../agents/run-agent.js';
import type { TestRunner } from '../runners/runner.js';
import type { SessionFiles } from '../session/session-files.js';
import type { FixHistoryEntry, FixPlan, IterationState } from '../session/schema.js';
import type { ChainHooks } from '../agents/chain.js';
import type { Criticality, RunError } from '../types.js';

/** Everything one session's loop works with. */
export interface LoopContext {
  repo: Repo;
  session: SessionFiles;
  runner: TestRunner;
  agents: ResolvedAgent[];
  config: FixcycleConfig;
  emit: EventSink;
  options: LoopOptions;
  /**
   * The user's HEAD when the loop runs in its own worktree from a snapshot of their uncommitted changes: the
   * change localization ranks by, when no commit where the tests passed is known.
   */
  startedFrom?: string;
  /** The new session's first files, still being written when the loop starts; awaited before a run records its results. */
  sessionWritten?: Promise<void>;
  /** Guesses a failure's criticality from its message when no rule or flaky re-run decides. */
  heuristic?: (test: {
    id: string;
    name: string;
    file?: string;
    message?: string;
  }) => { level: Criticality; reason: string } | null;
}

/** What the user chose on the command line (or the config), with defaults applied. */
export interface LoopOptions {
  maxIterations: number;
  testTimeoutMs: number;
  agentTimeoutMs: number;
  /** --yes: approve partial success without asking. */
  autoApprove: boolean;
  /** Someone can press a key to approve (the TUI); headless runs stop with exit 3 instead. */
  interactive: boolean;
  /** Headless: someone will decide a partial success (--wait-approval, or a pane follows the repository), so wait instead of exiting 3. */
  waitForDecision?: () => Promise<boolean>;
  /** Times a failing test is re-run before an agent is asked. */
  flakyReruns: number;
  /** Rank suspects before each analysis; false with --no-localize (default on). */
  localize?: boolean;
  /** Degraded iterations in a row (no usable plan or fix) that stop the session; default 3 when absent. */
  maxDegraded?: number;
  /** --update-snapshots: a fix may rewrite snapshots (files and inline); otherwise that weakens the tests. */
  updateSnapshots?: boolean;
  /** --in-place: the loop works in the user's tree, so a file of the fix changed after the agent's step stops it. */
  inPlace?: boolean;
  /** Failures there before the session (gen's IMPL-002): the project's own, reported and left alone. */
  isOwnFailure?: (id: string, name: string) => boolean;
  /** Errors outside tests there before the session (a lint step that failed before gen): the project's own. */
  isOwnError?: (error: RunError) => boolean;
}

/** Checks a fix before it counts (the cheating guard); returns why it is rejected, or null. */
export type FixChecker = (input: {
  changedFiles: string[];
  plan: FixPlan | null;
}) => Promise<{ rejected: string[] | null; testEdits?: string[] }>;

/** Optional policies added by the AI-CLI layer: cool-downs, plan triggers, budget, the fix guard. */
export interface LoopPolicies {
  /** `history`: the session's fix history as the loop just read it. */
  chainHooks?: (state: IterationState, history: FixHistoryEntry[]) => ChainHooks;
  checkFix?: FixChecker;
  /** Why no more agent calls may be made (budget spent), or null. */
  budgetExceeded?: () => string | null;
}
