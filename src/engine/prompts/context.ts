import type { FixHistoryEntry, FixPlan } from '../session/schema.js';
import type { Failure, Strategy } from '../types.js';
import type { Localization } from '../localize/types.js';

/** Everything a prompt may tell an agent about the iteration. */
export interface PromptContext {
  iteration: number;
  maxIterations: number;
  strategy: Strategy;
  strategyReason: string;
  passRate: number;
  failures: Failure[];
  /** Failures outside any test (import errors, crashes). */
  errors: { message: string; file?: string }[];
  stuckTests: string[];
  /** Earlier fix attempts, so a failed approach is not tried again. */
  history: FixHistoryEntry[];
  /** What was rolled back or rejected last time and why, for the next analysis. */
  lastSetback?: string;
  /** The plan to apply (fix role). */
  plan?: FixPlan;
  /** The suspects ranked before the analysis (absent with --no-localize), and the root their files are under. */
  localization?: Localization;
  root?: string;
  paths: { testResults: string; testOutput: string; task: string; sessionDir: string };
}
