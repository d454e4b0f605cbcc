import type { PromptContext } from './context.js';

export type { PromptContext } from './context.js';

const STRATEGY_RULES = {
  conservative: 'Conservative: make ONE targeted fix for the most important root cause, with high confidence. Do not batch unrelated changes.',
  aggressive: 'Aggressive: the failures share a pattern; fix the common root cause for all of them in one batch.',
  surgical: 'Surgical: the last fix caused a regression and was rolled back. Make the smallest possible change; avoid what that fix touched unless it is the root cause.',
} as const;

/** 12 KB: enough for the failing messages and stacks of a dozen tests without drowning the agent. */
const FAILURE_BUDGET = 12_000;

function failureBlock(ctx: PromptContext): string {
  let out = '';
  for (const f of ctx.failures) {
    const entry = `- ${f.id} [${f.criticality}]${f.file ? ` (${f.file})` : ''}\n  ${f.message.split('\n').slice(0, 8).join('\n  ')}\n${f.stack ? `  stack: ${f.stack.split('\n').slice(0, 6).join('\n  ')}\n` : ''}`;
    if (out.length + entry.length > FAILURE_BUDGET) {
      out += `- ... and ${ctx.failures.length - out.split('\n- ').length} more (see ${ctx.paths.testResults})\n`;
      break;
    }
    out += entry;
  }
  for (const e of ctx.errors) out += `- error outside tests${e.file ? ` (${e.file})` : ''}: ${e.message.split('\n').slice(0, 8).join('\n  ')}\n`;
  return out || '(none)\n';
}

function historyBlock(ctx: PromptContext): string {
  if (ctx.history.length === 0) return 'No earlier attempts.\n';
  return ctx.history
    .map((h) => `- iteration ${h.iteration} (${h.strategy}, ${h.agent ?? 'no agent'}): ${h.outcome}${h.reason ? ` — ${h.reason}` : ''}; root causes: ${h.root_causes.join('; ') || 'none'}; changed: ${h.files_changed.join(', ') || 'nothing'}`)
    .join('\n') + '\n';
}

const PLAN_SCHEMA = `{
  "root_causes": ["what is wrong, in one sentence each"],
  "modification_points": ["file:function:lines", "..."],
  "affected_tests": ["test ids from the list above that this fix should make pass"],
  "confidence_score": 0.0-1.0,
  "approach": "how to fix it, step by step",
  "criticality": { "<test id>": "low" | "medium" | "high" }   (optional)
  "tests_are_wrong": ["<test id>", ...]   (optional: only when the test itself is wrong)
}`;

/** The analysis prompt: failures, strategy, history, and the JSON to return. */
export function renderAnalysisPrompt(ctx: PromptContext): string {
  return `You are analysing failing tests for fixcycle, iteration ${ctx.iteration} of ${ctx.maxIterations}. Do not edit any file.

Pass rate: ${ctx.passRate}%
Strategy: ${ctx.strategy} (${ctx.strategyReason})
${STRATEGY_RULES[ctx.strategy]}

Failing tests:
${failureBlock(ctx)}
Stuck tests (failing 3 iterations in a row; the previous approaches did not work): ${ctx.stuckTests.join(', ') || 'none'}

Previous attempts (do not repeat an approach that failed):
${historyBlock(ctx)}${ctx.lastSetback ? `\nLast setback: ${ctx.lastSetback}\n` : ''}
Full output: ${ctx.paths.testOutput}

Find the root causes in the code under test (not in the tests) and answer with ONLY this JSON object:
${PLAN_SCHEMA}
`;
}

/** The fix prompt: the plan, the strategy's rules and the hard rules. */
export function renderFixPrompt(ctx: PromptContext): string {
  const plan = ctx.plan;
  return `Apply this fix for fixcycle, iteration ${ctx.iteration} (${ctx.strategy} strategy).
${STRATEGY_RULES[ctx.strategy]}

Root causes:
${plan?.root_causes.map((c) => `- ${c}`).join('\n') ?? '(see task file)'}
Modification points:
${plan?.modification_points.map((m) => `- ${m}`).join('\n') ?? ''}
Approach: ${plan?.approach ?? ''}
Tests that should pass afterwards: ${plan?.affected_tests.join(', ') || 'the failing tests'}
Task file: ${ctx.paths.task}

Hard rules:
- Fix the code under test. Do not delete, rename, skip or weaken tests (.skip, .only, xit, todo, removed or loosened assertions), and do not exclude tests in configuration or snapshots.
- Edit test files only if the plan lists the test in tests_are_wrong.
- Touch only files inside this repository. Do not commit: fixcycle commits.
`;
}
