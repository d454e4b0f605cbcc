import type { FixcycleConfig } from '../config.js';
import type { EngineEvent } from '../events.js';
import type { Repo } from '../git.js';
import type { ResolvedAgent } from '../agents/run-agent.js';
import type { ChainHooks } from '../agents/chain.js';
import type { TestRunner } from '../runners/runner.js';
import type { SessionFiles } from '../session/session-files.js';
import type { GenEvent, GenNode } from './events.js';
import type { GenState } from './state.js';

/** What the user chose for gen, defaults applied. */
export interface GenOptions {
  coverageLines: number;
  coverageBranches: number;
  layers: ('L1' | 'L2' | 'L3')[];
  keepRedundant: boolean;
  planOnly: boolean;
  maxIterations: number;
  testTimeoutMs: number;
  agentTimeoutMs: number;
  /** Runs of each new test in the quality gate (TestGen-LLM's 5). */
  stabilityRuns: number;
  /** Rounds back to `generate` IMPL-001.3 may ask for. */
  maxL0Rounds: number;
  /** Extra generate rounds aimed at uncovered lines. */
  maxCoverageRounds: number;
}

/** Everything one gen session works with. */
export interface GenContext {
  repo: Repo;
  session: SessionFiles;
  runner: TestRunner;
  agents: ResolvedAgent[];
  config: FixcycleConfig;
  options: GenOptions;
  state: GenState;
  emit: (event: EngineEvent | GenEvent) => void;
  hooks: ChainHooks;
  signal: AbortSignal;
  save(): Promise<void>;
}

export function node(
  ctx: Pick<GenContext, 'emit'>,
  n: GenNode,
  status: 'pending' | 'running' | 'done' | 'failed' | 'skipped',
  detail?: string,
  extra: { round?: number; findings?: string[] } = {},
): void {
  ctx.emit({ type: 'gen', node: n, status, ...(detail ? { detail } : {}), ...extra });
}
