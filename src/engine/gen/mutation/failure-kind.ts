import type { TestCase } from '../../types.js';

/** A failed check, as runners word it: an assertion error, pytest's rewritten `assert`, a `raises` that did not. */
const CHECK = /AssertionError|AssertError|^\s*assert\b|^\s*Failed: DID NOT (?:RAISE|WARN)|^\s*expect\(/;

/** An error raised and not caught: `TypeError: ...`, `jmespath.exceptions.ParseError: ...`, `Error: ...`, a Go panic. */
const THROWN =
  /^\s*(?:Uncaught\s+)?(?:[\w$]+\.)*[A-Z][\w$]*(?:Error|Exception)\b|Maximum call stack size exceeded|\bpanic: /;

/**
 * Did the test fail only because the code threw (an error any test running that code would see), not on a check
 * of its own? Read from the runner's own failure message, or the stack's first line where the message leaves out
 * the error's name: an assertion error is a check, any other error raised through the test is a throw.
 */
export function failedByThrow(t: Pick<TestCase, 'message' | 'stack'>): boolean {
  const first = (text?: string): string => text?.split('\n').find((line) => line.trim() !== '') ?? '';
  const lines = [first(t.message), first(t.stack)].filter(Boolean);
  if (lines.some((l) => CHECK.test(l))) return false;
  return lines.some((l) => THROWN.test(l));
}
