import type { TestCase } from '../../types.js';

/**
 * An error the code under test threw (a TypeError, an AttributeError, a Go panic), as the runner reports the
 * failure, rather than a check of the test failing. Read from the runner's own failure message: its first line
 * names the error (`TypeError: ...`, `AttributeError: ...`, `panic: runtime error ...`).
 */
const THROWN =
  /^\s*(?:Uncaught\s+)?(?:\w+\.)?(?:TypeError|ReferenceError|RangeError|AttributeError|KeyError|IndexError|NameError|UnboundLocalError|ZeroDivisionError|RecursionError)\b|Maximum call stack size exceeded|\bpanic: /;

/** Did the test fail only because the code threw (a crash any test running it would see), not on a check of its own? */
export function failedByThrow(t: Pick<TestCase, 'message' | 'stack'>): boolean {
  // Some reporters give the message without the error's name, which the stack's first line then carries.
  const first = (text?: string): string => text?.split('\n').find((line) => line.trim() !== '') ?? '';
  return THROWN.test(first(t.message)) || THROWN.test(first(t.stack));
}
