import type { Iteration } from '../session/schema.js';
import { decide } from './decide-step.js';
import { spotFlakyTests } from './flaky-step.js';
import { degraded, fix } from './fix-step.js';
import { agentSteps, type LoopRun } from './loop-run.js';
import { nextIteration } from './next-iteration.js';

/** Re-runs new failures once before an agent is asked; true when flaky tests settled the session. */
async function checkFlaky(r: LoopRun): Promise<boolean> {
  const { ctx, state } = r;
  const results = await spotFlakyTests(ctx, state, r.results!, r.signal);
  if (r.stopped) return true;
  if (!results) {
    await r.save();
    return false;
  }
  r.results = results;
  await ctx.session.saveResults(results);
  ctx.emit({ type: 'results', iteration: state.current_iteration, results });
  await decide(r, results, results.scope === 'full');
  return state.next_action !== 'execute_fix_task';
}

async function startIteration(r: LoopRun): Promise<Iteration> {
  const { ctx, state } = r;
  const iteration = nextIteration(state, r.results!);
  const n = iteration.iteration;
  await ctx.session.writeFailures(n, r.results!);
  state.iterations.push(iteration);
  Object.assign(state, {
    current_iteration: n,
    current_task: `IMPL-fix-${n}`,
    selected_strategy: iteration.strategy,
    strategy_reason: iteration.strategy_reason,
    next_action: 'execute_fix_task',
  });
  await r.save();
  return iteration;
}

/** One fix iteration up to its re-test: strategy, analysis, fix, guard. */
export async function iterate(r: LoopRun): Promise<void> {
  const { ctx, state } = r;
  const budget = r.policies.budgetExceeded?.();
  if (budget) {
    Object.assign(state, {
      status: 'failed',
      next_action: 'complete',
      stopped_by: 'budget',
      outcome_reason: `stopped: ${budget}; resume with a larger --budget to go on`,
    });
    await r.save();
    return;
  }
  if (!r.current && (await checkFlaky(r))) return;
  const it = r.current ?? (await startIteration(r));
  const history = await ctx.session.readHistory();
  if (it.step === 'analyze') {
    ctx.emit({
      type: 'strategy',
      iteration: it.iteration,
      strategy: it.strategy!,
      reason: it.strategy_reason ?? '',
    });
    const localization = await (
      await import('./localize-step.js')
    ).localizeFailures(ctx, it.iteration, r.results!, r.signal);
    if (r.stopped) return;
    const analysis = await (
      await agentSteps()
    ).analyzeFailures(
      ctx,
      {
        ...(await r.promptContext(it, history)),
        ...(localization ? { localization, root: ctx.repo.root } : {}),
      },
      r.hooks(history),
      r.signal,
    );
    if (r.stopped) return;
    it.agents_tried = analysis.calls.map((c) => c.agent);
    if (!analysis.plan)
      return degraded(
        r,
        it,
        'every agent failed to produce a usable fix plan',
        [
          ...analysis.calls.map((c) => `${c.agent}: ${c.classification}`),
          ...(analysis.failure ? [analysis.failure] : []),
        ].join(', ') || 'no agent available',
      );
    it.agent = analysis.agent ?? undefined;
    if (analysis.warnings.length) it.plan_warnings = analysis.warnings;
    if (analysis.plan.criticality) state.plan_criticality = { ...r.planCriticality(), ...analysis.plan.criticality };
    it.step = 'fix';
    await r.save();
    if (!(await r.controls.gate())) return;
  }
  if (it.step === 'fix') await fix(r, it, history);
}
