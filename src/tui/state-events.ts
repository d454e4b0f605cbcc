import type { EngineEvent, Outcome, Phase, PhaseStatus } from '../engine/events.js';
import type { IterationState } from '../engine/session/schema.js';
import type { Localization, Suspect } from '../engine/localize/types.js';
import type { TestResults } from '../engine/types.js';

const ENDED: Partial<Record<string, { outcome: Outcome; exitCode: number }>> = {
  completed: { outcome: 'success', exitCode: 0 },
  partial_success: { outcome: 'partial_success', exitCode: 0 },
  failed: { outcome: 'failure', exitCode: 1 },
  interrupted: { outcome: 'interrupted', exitCode: 130 },
  blocked: { outcome: 'error', exitCode: 1 },
};

/** Where the current iteration is: its own `step`, else what `next_action` implies (the design's shape has no step). */
function currentStep(state: IterationState): 'analyze' | 'fix' | 'retest' | 'done' | null {
  const last = state.iterations.at(-1);
  if (!last) return null;
  if (last.step) return last.step;
  if (last.result && last.result !== 'in_progress') return 'done';
  if (state.next_action === 'retest') return 'retest';
  return 'analyze';
}

/**
 * The EngineEvents a watcher replays for a state read from disk, so the phase tree and banners of a session
 * driven by another process look as they would live: test run, the current iteration's steps, validation
 * and completion, and the outcome once the session has one.
 */
export function eventsFromState(state: IterationState, results: TestResults | null): EngineEvent[] {
  const events: EngineEvent[] = [{ type: 'state', state }];
  const iteration = state.current_iteration;
  const ended = ENDED[state.status];
  const awaiting = state.status === 'awaiting_approval';
  const finished = ended !== undefined || awaiting;
  const phase = (p: Phase, status: PhaseStatus, detail?: string) =>
    events.push({ type: 'phase', phase: p, status, iteration, detail });

  phase('test', state.iterations.length > 0 || finished ? 'done' : state.status === 'active' ? 'running' : 'pending');
  const step = currentStep(state);
  if (step && iteration > 0) {
    const order = ['analyze', 'fix', 'retest', 'done'] as const;
    const at = order.indexOf(step);
    const running = state.status === 'active' && !finished;
    const mark = (index: number): PhaseStatus =>
      index < at ? 'done' : index === at && running ? 'running' : 'pending';
    const degraded = state.iterations.at(-1)?.result === 'degraded';
    phase('analysis', mark(0));
    phase('fix', degraded ? 'failed' : mark(1));
    phase('retest', degraded ? 'skipped' : mark(2));
  }
  // An interrupted session stopped where it was: it neither validated nor completed (it resumes from there).
  if (finished && state.status !== 'interrupted') {
    phase('validation', 'done');
    phase('completion', awaiting ? 'running' : 'done', awaiting ? 'awaiting approval' : undefined);
  }
  if (awaiting && results)
    events.push({ type: 'await-approval', passRate: results.pass_rate, failures: results.failures });
  const handback = state.worktree?.handback;
  if (handback && state.worktree)
    events.push({
      type: 'handback',
      status: handback.status,
      branch: state.worktree.branch,
      commits: handback.commits.length,
      ...(handback.command && handback.status !== 'applied' ? { command: handback.command } : {}),
      ...(handback.reason ? { reason: handback.reason } : {}),
    });
  if (ended) {
    events.push({
      type: 'done',
      outcome: ended.outcome,
      reason: state.outcome_reason ?? state.status.replace(/_/g, ' '),
      exitCode: ended.exitCode,
      passRate: results?.pass_rate ?? state.iterations.at(-1)?.pass_rate ?? null,
    });
  }
  return events;
}

/**
 * A parsed test-results.json as the views need it, or null for a half-written or foreign file.
 * Failures written by other tools may lack fields: they get an id, a message and medium criticality.
 */
export function readTestResults(value: unknown): TestResults | null {
  const r = value as Partial<TestResults> | null;
  if (
    typeof r !== 'object' ||
    r === null ||
    typeof r.pass_rate !== 'number' ||
    typeof r.total !== 'number' ||
    !Array.isArray(r.failures)
  )
    return null;
  const failures = r.failures
    .filter((f): f is TestResults['failures'][number] => typeof f === 'object' && f !== null)
    .map((f) => {
      const name = String(f.name ?? f.id ?? 'unnamed test');
      return {
        ...f,
        id: String(f.id ?? name),
        name,
        message: String(f.message ?? ''),
        criticality: (['high', 'medium', 'low'] as const).find((c) => c === f.criticality) ?? 'medium',
        criticality_source: f.criticality_source ?? 'default',
      };
    });
  return { ...(r as TestResults), failures, errors: Array.isArray(r.errors) ? r.errors : [] };
}

const isSuspect = (s: Partial<Suspect> | null): s is Suspect =>
  typeof s === 'object' &&
  s !== null &&
  typeof s.file === 'string' &&
  typeof s.function === 'string' &&
  typeof s.startLine === 'number' &&
  typeof s.endLine === 'number' &&
  typeof s.score === 'number';

/**
 * The suspects an iteration's failures record (`iteration-N-failures.json`) holds, for the failures of `results`
 * only: the record ranks the failures before that iteration's fix, which a later run may have changed. Null
 * otherwise, or for a record without them (--no-localize, an older fixcycle).
 */
export function readLocalization(value: unknown, results: TestResults | null): Localization | null {
  const record = value as { failures?: { id?: unknown }[]; localization?: Partial<Localization> } | null;
  const loc = record?.localization;
  if (
    !results ||
    typeof loc !== 'object' ||
    loc === null ||
    !Array.isArray(loc.suspects) ||
    !Array.isArray(record?.failures)
  )
    return null;
  const ranked = new Set(record.failures.map((f) => String(f?.id)));
  if (ranked.size !== results.failures.length || !results.failures.every((f) => ranked.has(f.id))) return null;
  const suspects = (loc.suspects as Partial<Suspect>[]).filter(isSuspect).map((s) => ({
    ...s,
    lines: Array.isArray(s.lines) ? s.lines : [],
    scores: s.scores ?? {},
    evidence: Array.isArray(s.evidence) ? s.evidence.map(String) : [],
  }));
  return {
    ...loc,
    suspects,
    used: Array.isArray(loc.used) ? loc.used : [],
    notes: Array.isArray(loc.notes) ? loc.notes.map(String) : [],
    durationMs: typeof loc.durationMs === 'number' ? loc.durationMs : 0,
  };
}
