import type { BudgetLimits } from '../engine/agents/budget.js';

/** The options of `run`, as commander parses them (`gen` and `team` share most of them). */
export interface RunFlags {
  cwd: string;
  testCmd?: string;
  runner?: string;
  agentCmd?: string[];
  agent?: string[];
  maxIterations?: number;
  maxDegraded?: number;
  /** commander sets false for --no-localize. */
  localize?: boolean;
  resumeSession?: string | true;
  sessionName?: string;
  yes?: boolean;
  waitApproval?: boolean;
  allowDirty?: boolean;
  inPlace?: boolean;
  /** commander sets false for --no-apply. */
  apply?: boolean;
  headless?: boolean;
  json?: boolean;
  testTimeout?: number;
  agentTimeout?: number;
  budget?: BudgetLimits;
  updateSnapshots?: boolean;
  /** commander sets false for --no-bell. */
  bell?: boolean;
}

/** The flags of `gen`: those of `run`, plus its own. */
export type GenFlags = RunFlags & {
  planOnly?: boolean;
  layers?: string;
  coverageLines: string;
  coverageBranches: string;
  keepRedundant?: boolean;
};
