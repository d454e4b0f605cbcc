import type { PromptContext } from './context.js';
import {
  failureBlock,
  FAILURE_BUDGET,
  historyBlock,
  list,
  PLAN_SCHEMA,
  setbackBlock,
  stuckBlock,
  SUSPECTS_DETAIL,
} from './blocks.js';
import { suspectsPromptBlock } from '../localize/format.js';
import { fillTemplate, loadTemplate, strategyRules } from './templates.js';
import { MIN_ANALYSIS_WORDS } from '../agents/triggers.js';

export type { PromptContext } from './context.js';
export { PROMPT_VERSION } from './templates.js';

function rulesFor(ctx: PromptContext): string {
  const rules = strategyRules()[ctx.strategy];
  if (!rules) throw new Error(`templates/strategies has no section for the ${ctx.strategy} strategy`);
  return rules;
}

/** The analysis prompt (templates/analysis.v1.md): failures, strategy, stuck tests, history, and the JSON to return. */
export function renderAnalysisPrompt(ctx: PromptContext): string {
  return fillTemplate(
    loadTemplate('analysis'),
    {
      iteration: ctx.iteration,
      max_iterations: ctx.maxIterations,
      pass_rate: ctx.passRate,
      strategy: ctx.strategy,
      strategy_reason: ctx.strategyReason,
      strategy_rules: rulesFor(ctx),
      // With suspects the failures need less room: a third of the budget, shorter messages and stacks.
      failures: ctx.localization ? failureBlock(ctx, FAILURE_BUDGET / 3, SUSPECTS_DETAIL) : failureBlock(ctx),
      suspects: ctx.localization ? `\n\n## Suspects\n${suspectsPromptBlock(ctx.localization, ctx.root ?? '.')}` : '',
      stuck_tests: stuckBlock(ctx),
      history: historyBlock(ctx),
      last_setback: setbackBlock(ctx),
      test_results_path: ctx.paths.testResults,
      test_output_path: ctx.paths.testOutput,
      min_words: MIN_ANALYSIS_WORDS,
      plan_schema: PLAN_SCHEMA,
    },
    'templates/analysis.v1.md',
  );
}

/** The fix prompt (templates/fix.v1.md): the plan, the strategy's rules and the hard rules. */
export function renderFixPrompt(ctx: PromptContext): string {
  const plan = ctx.plan;
  return fillTemplate(
    loadTemplate('fix'),
    {
      iteration: ctx.iteration,
      max_iterations: ctx.maxIterations,
      strategy: ctx.strategy,
      strategy_rules: rulesFor(ctx),
      root_causes: list(plan?.root_causes, `(see the task file ${ctx.paths.task})`),
      modification_points: list(plan?.modification_points, '(see the task file)'),
      approach: plan?.approach ?? '(see the task file)',
      affected_tests: list(plan?.affected_tests, 'the failing tests below'),
      tests_are_wrong: list(plan?.tests_are_wrong, 'None: do not edit any test file.'),
      failures: failureBlock(ctx, 6_000),
      task_path: ctx.paths.task,
      test_results_path: ctx.paths.testResults,
    },
    'templates/fix.v1.md',
  );
}
