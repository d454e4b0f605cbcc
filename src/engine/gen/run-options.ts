import type { EngineEvent, LoopControls } from '../events.js';
import type { StartOptions } from '../start.js';
import type { GenEvent } from './events.js';

/** What `fixcycle gen` was asked to do: run's options plus gen's own. */
export interface GenRunOptions extends Omit<StartOptions, 'emit' | 'policies' | 'resumeSession'> {
  input?: string;
  /** Continue this gen session (from `fixcycle run --resume-session`). */
  resumeSession?: string;
  planOnly: boolean;
  coverageLines: number;
  coverageBranches: number;
  layers: ('L1' | 'L2' | 'L3')[];
  keepRedundant: boolean;
  emit: (event: EngineEvent | GenEvent) => void;
  signal: AbortSignal;
  /** Called with the fix loop's controls when IMPL-002 starts, so the TUI's keys (approve, roll back, pause) reach it. */
  onLoopControls?: (controls: LoopControls) => void;
}
