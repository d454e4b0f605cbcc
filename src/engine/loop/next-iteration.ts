import { failureSimilarity } from '../decisions/similarity.js';
import { chooseStrategy } from '../decisions/strategy.js';
import { stuckShare } from '../decisions/stuck.js';
import type { Iteration, IterationState } from '../session/schema.js';
import type { TestResults } from '../types.js';
import { wasRolledBack } from './iteration-record.js';

/** The next iteration on these results: its strategy (and why), chosen from how the last one went. */
export function nextIteration(state: IterationState, results: TestResults): Iteration {
  const n = state.current_iteration + 1;
  const previous = state.iterations.at(-1);
  const choice = chooseStrategy({
    iteration: n,
    passRate: results.pass_rate,
    lastRegressed: wasRolledBack(previous),
    similarity: failureSimilarity(results.failures.map((f) => f.message)),
    stuckShare: stuckShare(
      results.failures.map((f) => f.id),
      state.stuck_tests,
    ),
    previous: previous?.strategy,
  });
  return {
    iteration: n,
    started_at: new Date().toISOString(),
    strategy: choice.strategy,
    strategy_reason: choice.reason,
    pass_rate_before: results.pass_rate,
    analysis_file: `.process/iteration-${n}-analysis.md`,
    fix_task: `IMPL-fix-${n}`,
    result: 'in_progress',
    step: 'analyze',
  };
}
