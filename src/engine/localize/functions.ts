import { goFunctions, rustFunctions } from './brace-functions.js';
import { acornFunctions } from './acorn-functions.js';
import { jsFunctions } from './js-functions.js';
import { pythonFunctions } from './py-functions.js';
import type { FunctionSpan } from './types.js';

export type { FunctionSpan } from './types.js';

export const TOP_LEVEL = '(top level)';

/** The functions of one source file, by its language; none for a language fixcycle cannot parse. */
export async function functionsOf(file: string, text: string): Promise<FunctionSpan[]> {
  // acorn for plain JavaScript (fast to load); the TypeScript compiler for TypeScript, JSX, or what acorn rejects.
  if (/\.[cm]?js$/.test(file)) return acornFunctions(text) ?? jsFunctions(file, text);
  if (/\.[cm]?[jt]sx?$/.test(file)) return jsFunctions(file, text);
  if (file.endsWith('.py')) return pythonFunctions(text);
  if (file.endsWith('.go')) return goFunctions(text);
  if (file.endsWith('.rs')) return rustFunctions(text);
  return [];
}

/** The innermost function holding a line, or null for top-level code. */
export function enclosingFunction(spans: readonly FunctionSpan[], line: number): FunctionSpan | null {
  let best: FunctionSpan | null = null;
  for (const span of spans) {
    if (span.start <= line && line <= span.end && (!best || span.end - span.start < best.end - best.start)) best = span;
  }
  return best;
}
