import type { FixHistoryEntry } from '../session/schema.js';
import type { PromptContext } from './context.js';

/** 12 KB: enough for the failing messages and stacks of a dozen tests without drowning the agent. */
export const FAILURE_BUDGET = 12_000;

function indent(lines: string[]): string {
  return lines.map((l) => `  ${l}`).join('\n');
}

/** What the failure block shows of each failure: fewer lines when the suspects already point at the code. */
export interface FailureDetail {
  messageLines: number;
  stackLines: number;
  /** Only the stack's frames (`at f (file:1:2)`, `file.py:12: in f`), not the message it repeats. */
  framesOnly?: boolean;
}
const FULL_DETAIL: FailureDetail = { messageLines: 8, stackLines: 6 };
/** With suspects: the stack's frames in the project are in them, so the stack shows only its first frame. */
export const SUSPECTS_DETAIL: FailureDetail = { messageLines: 8, stackLines: 1, framesOnly: true };

/** The failing tests with message (8 lines) and stack (6 lines) each, trimmed to FAILURE_BUDGET characters. */
export function failureBlock(ctx: PromptContext, budget = FAILURE_BUDGET, detail: FailureDetail = FULL_DETAIL): string {
  const entries: string[] = [];
  let size = 0;
  let shown = 0;
  for (const f of ctx.failures) {
    const head = `- ${f.id} [criticality ${f.criticality}]${f.file && !f.id.includes(f.file) ? ` (${f.file})` : ''}${f.missing ? ' (missing: no longer reported)' : ''}`;
    const message = indent(f.message.split('\n').slice(0, detail.messageLines));
    const stackLines = (f.stack ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => !detail.framesOnly || /^at |:\d+(:\d+)?\)?$|:\d+: /.test(l));
    // The message's own `at file:line` says where the test failed; the suspects say where the code is.
    const located = detail.framesOnly && /(^|\n)at \S+:\d+/.test(f.message);
    const stack =
      f.stack && !located && (stackLines.length > 0 || !detail.framesOnly)
        ? `\n  stack:\n${indent(stackLines.slice(0, detail.stackLines))}`
        : '';
    const entry = `${head}\n${message}${stack}`;
    if (shown > 0 && size + entry.length > budget) break;
    entries.push(entry);
    size += entry.length;
    shown++;
  }
  if (shown < ctx.failures.length)
    entries.push(`- ... and ${ctx.failures.length - shown} more failing tests (see ${ctx.paths.testResults})`);
  for (const e of ctx.errors)
    entries.push(
      `- error outside the tests${e.file ? ` (${e.file})` : ''}:\n${indent(e.message.split('\n').slice(0, 8))}`,
    );
  return entries.join('\n') || '(none)';
}

function attempt(h: FixHistoryEntry): string {
  const rates = `pass rate ${h.pass_rate_before}% -> ${h.pass_rate_after === null ? 'not measured' : `${h.pass_rate_after}%`}`;
  return [
    `- iteration ${h.iteration} (${h.strategy}, ${h.agent ?? 'no agent'}): ${h.outcome.replace(/_/g, ' ')}, ${rates}${h.reason ? `; why: ${h.reason}` : ''}`,
    `  root causes: ${h.root_causes.join('; ') || 'none'}`,
    ...(h.approach ? [`  approach: ${h.approach}`] : []),
    `  changed: ${h.files_changed.join(', ') || 'nothing'}`,
  ].join('\n');
}

/** Earlier fix attempts, newest last, so a failed approach is not proposed again. */
export function historyBlock(ctx: PromptContext): string {
  return ctx.history.length ? ctx.history.map(attempt).join('\n') : 'No earlier attempts.';
}

export function stuckBlock(ctx: PromptContext): string {
  if (ctx.stuckTests.length === 0) return 'None.';
  return `${ctx.stuckTests.map((t) => `- ${t}`).join('\n')}\nThese have failed 3 iterations in a row: the approaches tried so far do not work for them; look for a different root cause.`;
}

export function setbackBlock(ctx: PromptContext): string {
  return ctx.lastSetback ? `\n\nLast setback: ${ctx.lastSetback}` : '';
}

export function list(items: readonly string[] | undefined, empty: string): string {
  return items?.length ? items.map((i) => `- ${i}`).join('\n') : empty;
}

/** The fix plan's JSON as the analysis agent must return it. */
export const PLAN_SCHEMA = `{
  "root_causes": ["what is wrong and why, one entry per root cause"],
  "modification_points": ["file:function:lines, e.g. src/math.js:add:12-14"],
  "affected_tests": ["ids of the failing tests above that this fix makes pass"],
  "confidence_score": 0.0 to 1.0,
  "approach": "how to fix it, step by step",
  "criticality": { "<test id>": "low" | "medium" | "high" },   (optional)
  "tests_are_wrong": ["<test id>"]   (optional: only tests that are themselves wrong)
}`;
