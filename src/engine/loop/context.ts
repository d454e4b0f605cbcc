import type { FixcycleConfig } from '../config.js';
import type { EventSink } from '../events.js';
import type { Repo } from '../git.js';
import type { ResolvedAgent } from '../agents/run-agent.js';
import type { TestRunner } from '../runners/runner.js';
import type { SessionFiles } from '../session/session-files.js';
import type { Criticality } from '../types.js';

/** Everything one session's loop works with. */
export interface LoopContext {
  repo: Repo;
  session: SessionFiles;
  runner: TestRunner;
  agents: ResolvedAgent[];
  config: FixcycleConfig;
  emit: EventSink;
  options: LoopOptions;
  /** Guesses a failure's criticality from its message when no rule or flaky re-run decides. */
  heuristic?: (test: { id: string; name: string; file?: string; message?: string }) => { level: Criticality; reason: string } | null;
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
  /** Times a failing test is re-run before an agent is asked. */
  flakyReruns: number;
}
