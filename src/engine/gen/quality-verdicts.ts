import type { StaticHint, TestEvidence } from './decide-drop.js';
import type { GenState, KeptTest } from './state.js';
import type { Observed } from './quality-observe.js';

/** What the quality gate decided so far: the kept tests, and the dropped ones per file (their reasons in `state`). */
export interface Verdicts {
  kept: KeptTest[];
  dropped: Map<string, Observed[]>;
  /** Records a rejection (once per gate round: a gate resumed after a stop finds again what it found before). */
  reject(t: { id: string; file: string }, reason: string): void;
  /** Rejects a test and takes it out of its file after the gate. */
  drop(t: Observed, reason: string): void;
  keep(t: Observed, note: string, newLines?: number): void;
  /** The facts a keep or a drop rests on, from what the runner said of a test and L0's hints on it. */
  evidence(t: Observed, more?: Partial<TestEvidence>): TestEvidence;
  /** L0's hints on one test; a path of [] asks for the whole file's. */
  hintsOf(t: Pick<Observed, 'file' | 'path'>): StaticHint[];
}

export function verdicts(
  state: GenState,
  runs: number,
  hintsOf: (t: Pick<Observed, 'file' | 'path'>) => StaticHint[],
): Verdicts {
  const round = state.generate_round;
  const kept: KeptTest[] = [];
  const dropped = new Map<string, Observed[]>();
  const reject = (t: { id: string; file: string }, reason: string): void => {
    if (!state.rejected.some((r) => r.gate === 'IMPL-001.5' && r.round === round && r.test === t.id))
      state.rejected.push({ test: t.id, file: t.file, gate: 'IMPL-001.5', reason, round });
  };
  return {
    kept,
    dropped,
    reject,
    drop: (t, reason) => {
      reject(t, reason);
      dropped.set(t.file, [...(dropped.get(t.file) ?? []), t]);
    },
    keep: (t, note, newLines) =>
      void kept.push({ test: t.id, file: t.file, note, ...(newLines === undefined ? {} : { new_lines: newLines }) }),
    evidence: (t, more = {}) => ({
      collected: true,
      statuses: t.statuses,
      runs,
      ...(t.message ? { message: t.message } : {}),
      hints: hintsOf(t),
      ...more,
    }),
    hintsOf,
  };
}
