import type { TestCase } from '../../types.js';

/** A failed check, as runners word it: an assertion error, pytest's rewritten `assert`, a `raises` that did not. */
const CHECK = /AssertionError|AssertError|^\s*assert\b|^\s*Failed: DID NOT (?:RAISE|WARN)|^\s*expect\(/;

/** An error raised and not caught: `TypeError: ...`, `jmespath.exceptions.ParseError: ...`, `Error: ...`, a Go panic. */
const THROWN =
  /^\s*(?:Uncaught\s+)?(?:[\w$]+\.)*[A-Z][\w$]*(?:Error|Exception)\b|Maximum call stack size exceeded|\bpanic: /;

/**
 * A runner's own words for an error thrown through the test, wrapped in its assertion error: ava reports a throw as
 * `AssertionError: Error thrown in test` (the thrown error only in its details) and a rejection alike.
 */
const WRAPPED_THROW = /\b(?:Error thrown in test|Rejected promise returned by test)\b/;

/**
 * The runner failed the test for running no assertion at all: ava's `Test finished without running any
 * assertions`, jest's `expect.hasAssertions()` / `expect.assertions(n)` with none made. The runner's verdict that
 * the test checks nothing, not a bug it found.
 */
const NO_ASSERTION_RAN =
  /Test finished without running any assertions|Expected at least one assertion to be called but received none|Expected .+ to be called but received zero assertion calls/;

/** Whether the runner failed the test for making no assertion (its message says so). */
export function failedForNoAssertion(t: { message?: string | undefined }): boolean {
  return NO_ASSERTION_RAN.test(t.message ?? '');
}

/**
 * Did the test fail only because the code threw (an error any test running that code would see), not on a check
 * of its own? Read from the runner's own failure message, or the stack's first line where the message leaves out
 * the error's name: an assertion error is a check, any other error raised through the test is a throw.
 */
export function failedByThrow(t: Pick<TestCase, 'message' | 'stack'>): boolean {
  const first = (text?: string): string => text?.split('\n').find((line) => line.trim() !== '') ?? '';
  const lines = [first(t.message), first(t.stack)].filter(Boolean);
  if (lines.some((l) => WRAPPED_THROW.test(l))) return true;
  if (lines.some((l) => CHECK.test(l))) return false;
  return lines.some((l) => THROWN.test(l));
}
