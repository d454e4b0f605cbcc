import type { ResolvedAgent } from '../agents/run-agent.js';
import type { EngineEvent } from '../events.js';
import type { TestRunner } from '../runners/runner.js';
import type { ChangedFile } from '../gen/changes.js';
import type { ScopeRecord, TeamPaths } from './session.js';
import type { TeamTask } from './tasks-csv.js';

/** One lock at a time: for the main work tree, the coverage environment and the session files. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  async run<T>(job: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise((r) => (release = r));
    await previous;
    try {
      return await job();
    } finally {
      release();
    }
  }
}

export interface TeamOptions {
  concurrency: number;
  agentTimeoutMs: number;
  testTimeoutMs: number;
  maxGcRounds: number;
  maxL0Rounds: number;
  maxFixIterations: number;
}

/** Everything one team session works with. */
export interface TeamContext {
  root: string;
  sessionId: string;
  paths: TeamPaths;
  record: ScopeRecord;
  /** The changed source files and their changed lines: what coverage is measured on. */
  changed: ChangedFile[];
  tasks: TeamTask[];
  runner: TestRunner;
  agents: ResolvedAgent[];
  options: TeamOptions;
  emit: (event: EngineEvent) => void;
  signal: AbortSignal;
  /** Held while something writes to or runs tests in the main work tree. */
  mainTree: Mutex;
  /** Held while tasks.csv or the board is written. */
  files: Mutex;
  /** The agent and runner choices, for the fix loop the executors start. */
  loop: {
    agentCmds?: string[];
    agentNames?: string[];
    runner?: string;
    testCmd?: string;
    agentTimeoutMs?: number;
    testTimeoutMs?: number;
  };
  /** Writes tasks.csv as it is now. */
  save(): Promise<void>;
}
