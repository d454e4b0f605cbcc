import type { Phase, PhaseStatus } from '../engine/events.js';
import type { SessionView } from '../state/store.js';
import { formatPercent } from './iteration-rows.js';

/** The steps of one iteration, nested under it in the phase tree. */
export const ITERATION_STEPS = ['analysis', 'fix', 'retest'] as const satisfies readonly Phase[];

/** Each phase's name on screen, long (tree) and short (compact line). */
export const PHASE_NAMES: Record<Phase, { long: string; short: string }> = {
  test: { long: 'Test run', short: 'test' },
  analysis: { long: 'Analysis', short: 'analysis' },
  fix: { long: 'Fix', short: 'fix' },
  retest: { long: 'Fix validation', short: 're-test' },
  validation: { long: 'Final validation', short: 'validation' },
  completion: { long: 'Completion', short: 'done' },
};

type PhaseSource = Pick<
  SessionView,
  'phases' | 'phaseIteration' | 'state' | 'strategy' | 'results' | 'paused' | 'done'
>;

/** The status the iteration line shows: running while any of its steps runs, failed if one failed, done when all are. */
export function iterationStatus(view: Pick<SessionView, 'phases'>): PhaseStatus {
  const statuses = ITERATION_STEPS.map((step) => view.phases[step].status);
  if (statuses.includes('running')) return 'running';
  if (statuses.includes('failed')) return 'failed';
  if (statuses.every((s) => s === 'done' || s === 'skipped')) return 'done';
  // Some steps done, the next not started yet: the iteration is under way, not pending.
  if (statuses.some((s) => s === 'done')) return 'running';
  return 'pending';
}

const ROLLED_BACK = new Set(['rolled_back', 'regressed_rolled_back']);

type Entry = NonNullable<SessionView['state']>['iterations'][number];

/** The session has not recorded the iteration's end yet: its row says running, so the tree must not say done. */
function unrecorded(entry: Entry | undefined): boolean {
  return entry !== undefined && !entry.completed_at && (!entry.result || entry.result === 'in_progress');
}

/**
 * The iteration line's mark: as its steps say, but a rolled-back iteration is skipped (undone), never a green done,
 * and an iteration the session has not recorded as ended is still running (as its row says).
 */
export function iterationMark(view: Pick<SessionView, 'phases' | 'phaseIteration' | 'state'>): PhaseStatus {
  const entry = view.state?.iterations.find((it) => it.iteration === view.phaseIteration);
  if (entry?.result && ROLLED_BACK.has(entry.result)) return 'skipped';
  const status = iterationStatus(view);
  return status === 'done' && unrecorded(entry) ? 'running' : status;
}

/** The iteration the tree shows: the one the phases belong to, else the state's current one. */
export function currentIteration(view: PhaseSource): number {
  return view.phaseIteration || view.state?.current_iteration || 0;
}

/** `Iteration 2: Fix validation (pass: 82%, conservative)`, as in the design's progress tracking. */
export function currentIterationLabel(view: PhaseSource): string {
  const n = currentIteration(view);
  if (n === 0) return 'Fix cycle: waits for the first test run';
  const running = ITERATION_STEPS.find((step) => view.phases[step].status === 'running');
  const failed = ITERATION_STEPS.find((step) => view.phases[step].status === 'failed');
  const last = [...ITERATION_STEPS].reverse().find((step) => view.phases[step].status === 'done');
  const entry = view.state?.iterations.find((it) => it.iteration === n);
  let step: string;
  if (entry?.result && ROLLED_BACK.has(entry.result))
    step = entry.result === 'rolled_back' ? 'rolled back by user' : 'regression rolled back';
  else if (running) step = PHASE_NAMES[running].long;
  else if (failed) step = `${PHASE_NAMES[failed].long} failed`;
  else if (last === 'retest' && !unrecorded(entry)) step = 'done';
  else if (last) step = `${PHASE_NAMES[last].long} done`;
  else step = 'waiting';
  if (view.paused && !view.done) step += ', paused';
  // The iteration's own pass rate and strategy once it has them: never the next iteration's strategy.
  const finished = entry?.completed_at !== undefined || (entry?.result !== undefined && entry.result !== 'in_progress');
  const pass = (finished ? entry?.pass_rate : undefined) ?? view.results?.pass_rate ?? entry?.pass_rate;
  const strategy =
    entry?.strategy ??
    (view.strategy && view.strategy.iteration === n ? view.strategy.strategy : undefined) ??
    view.strategy?.strategy ??
    view.state?.selected_strategy;
  const facts = [pass !== undefined ? `pass: ${formatPercent(pass)}` : null, strategy ?? null]
    .filter(Boolean)
    .join(', ');
  return `Iteration ${n}: ${step}${facts ? ` (${facts})` : ''}`;
}

type AgentSource = Pick<SessionView, 'agent' | 'agentFailures' | 'phaseIteration' | 'state'>;

/** `claude: rate limited` */
function failureText(f: SessionView['agentFailures'][number]): string {
  return `${f.agent}: ${f.classification.replace(/_/g, ' ')}`;
}

/** Who works on a step: `claude`, `codex (fallback after claude: rate limited)`, `claude: rate limited → codex: timeout`. */
export function stepAgentText(view: AgentSource, step: 'analysis' | 'fix'): string {
  const role = step === 'analysis' ? 'analyze' : 'fix';
  const agent =
    view.agent && view.agent.role === role && view.agent.iteration === view.phaseIteration ? view.agent : null;
  if (!agent) {
    const entry = view.state?.iterations.find((it) => it.iteration === view.phaseIteration);
    return entry?.degraded && step === 'fix' ? 'degraded: no agent succeeded' : '';
  }
  const ok = agent.status === 'started' || agent.classification === 'ok' || agent.classification === undefined;
  // Every agent tried so far failed: say who failed how, in the order they were tried.
  if (!ok) return view.agentFailures.map(failureText).join(' → ');
  const before = view.agentFailures.filter((f) => f.agent !== agent.agent).map(failureText);
  return before.length > 0 ? `${agent.agent} (fallback after ${before.join(', ')})` : agent.agent;
}
