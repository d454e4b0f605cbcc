import { partsLeftOut } from './parts-left-out-step.js';
import type { FixHistoryEntry, IterationState } from '../session/schema.js';
import type { TestResults } from '../types.js';
import { usageCell, type IterationUsage } from './iteration-usage.js';

function iterationTable(state: IterationState, usage?: Map<number, IterationUsage>): string {
  if (state.iterations.length === 0) return 'No fix iterations ran.\n';
  const rows = state.iterations.map(
    (it) =>
      `| ${it.iteration} | ${it.strategy ?? ''} | ${it.pass_rate_before ?? ''}% → ${it.pass_rate ?? ''}% | ${it.agent ?? '-'} | ${it.result ?? ''} | ${it.commit ? it.commit.slice(0, 7) : '-'} |${usage ? ` ${usageCell(usage.get(it.iteration))} |` : ''}`,
  );
  const header = usage
    ? '| # | strategy | pass rate | agent | result | commit | tokens · cost |\n|---|---|---|---|---|---|---|'
    : '| # | strategy | pass rate | agent | result | commit |\n|---|---|---|---|---|---|';
  return `${header}\n${rows.join('\n')}\n`;
}

function failureList(results: TestResults): string {
  const lines = results.failures.map(
    (f) =>
      `- ${f.id} — **${f.criticality}** (${f.criticality_source})${f.missing ? ' [missing]' : ''}: ${f.message.split('\n')[0]}`,
  );
  // An error's message is the runner's own words after its first line: shown whole, not cut to the first line.
  for (const e of results.errors)
    lines.push(`- error outside tests${e.file ? ` (${e.file})` : ''}: ${indentedRest(e.message)}`);
  return lines.join('\n') || '- none';
}

// Lines of an error shown in a report: a stack or a runner's message, not a whole log.
const ERROR_LINES = 40;

function indentedRest(message: string): string {
  const [first, ...rest] = message.trimEnd().split('\n');
  const shown =
    rest.length > ERROR_LINES
      ? [...rest.slice(0, ERROR_LINES), `... (${rest.length - ERROR_LINES} more lines in .process/test-output.log)`]
      : rest;
  return [first, ...shown.map((line) => `    ${line}`)].join('\n');
}

/** The session summary written to .summaries/ at the end, whatever the outcome. */
export function renderSummary(
  state: IterationState,
  results: TestResults | null,
  outcome: string,
  reason: string,
  agentTotals: string,
  usage?: Map<number, IterationUsage>,
): string {
  return `# Test-fix session ${state.session_id}

Outcome: **${outcome}** — ${reason}
Final pass rate: ${results?.pass_rate ?? '?'}% (${results?.passed ?? '?'}/${results?.total ?? '?'})
Iterations: ${state.iterations.length} of ${state.max_iterations}
Started: ${state.started_at}  Finished: ${new Date().toISOString()}

## Iterations
${iterationTable(state, usage)}
## Remaining failures
${results ? failureList(results) : '- unknown'}
${notRunHere(state)}
## Agent calls
${agentTotals}
`;
}

function nextSteps(state: IterationState, results: TestResults | null, history: readonly FixHistoryEntry[]): string {
  const steps: string[] = [];
  if (state.stuck_tests.length > 0)
    steps.push(
      `Look at the stuck tests by hand (${state.stuck_tests.slice(0, 5).join(', ')}): ${3} or more fixes in a row did not reach them.`,
    );
  if (results?.errors.length)
    steps.push('Fix the errors outside tests first (imports, build, runner crash): they hide other results.');
  if (history.some((h) => h.outcome === 'regressed_rolled_back'))
    steps.push('Some fixes regressed and were rolled back: read their analyses in .process/ before trying again.');
  if (history.some((h) => h.outcome === 'rejected'))
    steps.push(
      'Some fixes were rejected for weakening tests: if a test itself is wrong, say so in the plan (tests_are_wrong).',
    );
  if (history.some((h) => h.outcome === 'degraded'))
    steps.push('Some analyses failed on every agent: check the agents with `fixcycle doctor`.');
  steps.push(
    `Continue with more iterations: \`fixcycle run --resume-session ${state.session_id} --max-iterations ${state.max_iterations + 5}\`.`,
  );
  return steps.map((s) => `- ${s}`).join('\n');
}

/** The failure report: final pass rate, remaining failures, history, stuck tests, what to do next. */
export function renderFailureReport(
  state: IterationState,
  results: TestResults | null,
  history: readonly FixHistoryEntry[],
  reason: string,
): string {
  return `# Failure report — ${state.session_id}

${reason}

Final pass rate: **${results?.pass_rate ?? '?'}%** (${results?.passed ?? '?'} of ${results?.total ?? '?'} baseline tests pass)

## Remaining failures
${results ? failureList(results) : '- unknown'}
${notRunHere(state)}
## Stuck tests
${state.stuck_tests.map((t) => `- ${t}`).join('\n') || '- none'}

## Iteration history
${iterationTable(state)}
## Fix attempts
${history.map((h) => `- iteration ${h.iteration} (${h.strategy}, ${h.agent ?? 'no agent'}): ${h.outcome}${h.reason ? ` — ${h.reason}` : ''}`).join('\n') || '- none'}

## What to do next
${nextSteps(state, results, history)}
`;
}

/** The parts of the test command left out because they cannot run here; nothing when none was. */
function notRunHere(state: IterationState): string {
  const parts = partsLeftOut(state);
  if (parts.length === 0) return '';
  const lines = parts.map(
    (p) => `- \`${p.command.join(' ')}\`: cannot run on this machine (it needs ${p.needs} that is not here)`,
  );
  return `\n## Not run here\n${lines.join('\n')}\n`;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** One line per agent with calls, time, and tokens and cost where the CLI reported them. */
export function summarizeCalls(calls: readonly Record<string, unknown>[]): string {
  if (calls.length === 0) return '- no agent calls';
  const byAgent = new Map<string, { calls: number; ms: number; tokens: number; cost: number; failed: number }>();
  for (const call of calls) {
    const name = String(call.agent);
    const t = byAgent.get(name) ?? { calls: 0, ms: 0, tokens: 0, cost: 0, failed: 0 };
    t.calls++;
    t.ms += Number(call.duration_ms ?? 0);
    t.tokens += Number(call.tokens ?? 0);
    t.cost += Number(call.cost_usd ?? 0);
    if (call.classification !== 'ok') t.failed++;
    byAgent.set(name, t);
  }
  return [...byAgent]
    .map(
      ([name, t]) =>
        `- ${name}: ${t.calls} call(s), ${t.failed} failed, ${round(t.ms / 1000)} s${t.tokens ? `, ${t.tokens} tokens` : ''}${t.cost ? `, $${round(t.cost)}` : ''}`,
    )
    .join('\n');
}
