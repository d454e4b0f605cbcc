import { describe, expect, it } from 'vitest';
import { failedByThrow } from '../../src/engine/gen/mutation/failure-kind.js';

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
