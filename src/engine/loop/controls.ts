import type { EventSink, LoopControls } from '../events.js';

export type ApprovalAnswer = 'approve' | 'rollback' | 'stop';

/** The user's side of a running loop: pause, stop, approve, roll back; the loop polls it between steps. */
export class UserControls implements LoopControls {
  rollbackRequested = false;
  /** Set by the loop: why approve/rollback cannot be done now, or null when they can. */
  approvalOpen = false;
  canRollBack: () => string | null = () => 'no committed fix to roll back yet';
  /** Set by the loop: changes its max iterations and saves it, or says why not. */
  budget: (delta: 1 | -1) => string | null = () => 'the loop has not started yet';
  /** Who approved the partial success (a key in this TUI, a pane's intent), once someone did. */
  approvedBy: string | null = null;
  private paused = false;
  private resumeWaiters: (() => void)[] = [];
  private approvalWaiter: ((answer: ApprovalAnswer) => void) | null = null;

  /** `abort`: the controller of a run started before the loop existed (a new session's first run). */
  constructor(
    private readonly emit: EventSink,
    readonly abort: AbortController = new AbortController(),
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  approve(by = 'the TUI of the driving process'): string | null {
    if (this.approvedBy) return `already approved by ${this.approvedBy}`;
    if (!this.approvalOpen || !this.approvalWaiter)
      return 'nothing to approve: approval is asked only for a partial success (≥ 95% with only low-criticality failures)';
    this.approvedBy = by;
    this.approvalWaiter('approve');
    return null;
  }

  requestRollback(): string | null {
    const why = this.canRollBack();
    if (why) return why;
    if (this.approvalWaiter) this.approvalWaiter('rollback');
    else this.rollbackRequested = true;
    return null;
  }

  togglePause(): boolean {
    this.paused = !this.paused;
    if (!this.paused) for (const resume of this.resumeWaiters.splice(0)) resume();
    this.emit({ type: 'paused', paused: this.paused });
    return this.paused;
  }

  changeMaxIterations(delta: 1 | -1): string | null {
    return this.budget(delta);
  }

  stop(): void {
    this.abort.abort();
    this.approvalWaiter?.('stop');
    for (const resume of this.resumeWaiters.splice(0)) resume();
  }

  /** Waits while paused; false when the user stopped the loop. */
  async gate(): Promise<boolean> {
    while (this.paused && !this.stopped) await new Promise<void>((resolve) => this.resumeWaiters.push(resolve));
    return !this.stopped;
  }

  /** Waits for the user to approve, roll back or stop. */
  waitForApproval(): Promise<ApprovalAnswer> {
    if (this.stopped) return Promise.resolve('stop');
    this.approvalOpen = true;
    return new Promise((resolve) => {
      this.approvalWaiter = (answer) => {
        this.approvalWaiter = null;
        this.approvalOpen = false;
        resolve(answer);
      };
    });
  }
}
