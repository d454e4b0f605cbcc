import { describe, expect, it } from 'vitest';
import { parseTap } from '../../src/engine/report/tap.js';
import { failedByThrow, failedForNoAssertion } from '../../src/engine/gen/mutation/failure-kind.js';

describe('a failure that is only the code throwing', () => {
  it.each([
    ["AttributeError: 'NoneType' object has no attribute 's'", undefined],
    [
      'Cannot read properties of undefined (reading "length")',
      "TypeError: Cannot read properties of undefined (reading 'length')\n    at parse (lib/x.js:3:9)",
    ],
    ['panic: runtime error: index out of range [3] with length 3 [recovered]', undefined],
    ['RangeError: Maximum call stack size exceeded', undefined],
    ["jmespath.exceptions.ParseError: Expecting: ['eof'], got: rbracket", undefined],
    ['ValueError: invalid literal for int() with base 10', undefined],
  ])("is told from the runner's words: %s", (message, stack) => {
    expect(failedByThrow({ message, ...(stack ? { stack } : {}) })).toBe(true);
  });

  it.each([
    ['AssertionError: 2 != 3', undefined],
    ["assert 'a' == 'b'", undefined],
    [
      'Expected values to be strictly equal:\n\n1 !== 2',
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    ],
    ['expect(received).toBe(expected) // Object.is equality', undefined],
    ['util_test.go:41: got 2, want 3', undefined],
    ["Failed: DID NOT RAISE <class 'ValueError'>", undefined],
    ['AssertionError: 0 != 1 : Lists differ', 'Traceback (most recent call last):'],
    ['expected [Function] to throw an error', 'AssertionError: expected [Function] to throw an error'],
  ])('is not a failed check: %s', (message, stack) => {
    expect(failedByThrow({ message, ...(stack ? { stack } : {}) })).toBe(false);
  });
});

// ava 6's own TAP stream (`ava --tap`) for three tests of quick-lru: one that ran no assertion, one whose code threw
// (ava wraps the throw in an AssertionError, the error itself only in its details), and one failing a check.
const AVA_TAP = `TAP version 13
not ok 1 - runs without throwing
  ---
    name: Error
    message: Test finished without running any assertions
    at: >-
      Test.verifyAssertions
      (file:///tmp/q/node_modules/ava/lib/test.js:518:25)
  ...
not ok 2 - throws
  ---
    name: AssertionError
    details:
      'Error thrown in test:': |-
        TypeError {
          message: 'Cannot read properties of null (reading \\'x\\')',
        }
    message: Error thrown in test
    at: 'file:///tmp/q/z1.test.js:4:28'
  ...
not ok 3 - assert fails
  ---
    name: AssertionError
    assertion: t.is()
    details:
      'Difference (- actual, + expected):': |-
        - 1
        + 2
    message: ''
    at: >-
      ExecutionContext.is
      (file:///tmp/q/node_modules/ava/lib/assert.js:309:16)
  ...

1..3
# tests 3
# pass 0
# fail 3
`;

describe("ava's words, read from its TAP stream", () => {
  const outcome = parseTap(AVA_TAP);
  const test = (name: string) => {
    if (!outcome.ok) throw new Error(`not parsed: ${outcome.error}`);
    return outcome.result.tests.find((t) => t.name === name)!;
  };

  it('a throw ava wraps as `AssertionError: Error thrown in test` is the code throwing, not a check', () => {
    expect(failedByThrow(test('throws'))).toBe(true);
    expect(failedByThrow(test('assert fails'))).toBe(false);
  });

  it('a test ava failed for running no assertion is told apart: the runner says it checks nothing', () => {
    expect(failedForNoAssertion(test('runs without throwing'))).toBe(true);
    expect(failedForNoAssertion(test('throws'))).toBe(false);
    expect(failedForNoAssertion(test('assert fails'))).toBe(false);
    // jest's expect.hasAssertions() with none made.
    expect(
      failedForNoAssertion({
        message: 'expect.hasAssertions()\n\nExpected at least one assertion to be called but received none.',
      }),
    ).toBe(true);
  });
});
