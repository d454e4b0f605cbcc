import type { LoopControls } from '../../src/engine/events.js';

/**
 * LoopControls that record what the keys asked for. The engine's own controls are tested with the
 * engine; here the question is only which intent a key stands for, and what the UI says back.
 */
export class RecordingControls implements LoopControls {
  calls: string[] = [];
  paused = false;
  /** What approve() and requestRollback() answer: null means it was accepted. */
  approveAnswer: string | null = null;
  rollbackAnswer: string | null = null;

  approve(): string | null {
    this.calls.push('approve');
    return this.approveAnswer;
  }
  requestRollback(): string | null {
    this.calls.push('rollback');
    return this.rollbackAnswer;
  }
  togglePause(): boolean {
    this.calls.push('pause');
    this.paused = !this.paused;
    return this.paused;
  }
  stop(): void {
    this.calls.push('stop');
  }
  changeMaxIterations(delta: 1 | -1): string | null {
    this.calls.push(delta > 0 ? 'more-iterations' : 'fewer-iterations');
    return null;
  }
}
