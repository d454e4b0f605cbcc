import { describe, expect, it } from 'vitest';
import { heuristicCriticality } from '../../src/engine/criticality/heuristics.js';

describe('heuristicCriticality', () => {
  it.each([
    // timeouts and the environment: low
    ['low', { name: 'loads the page', message: 'Error: Test timed out in 5000ms.' }],
    ['low', { name: 'fetches', message: 'thrown: "Exceeded timeout of 5000 ms for a test."' }],
    ['low', { name: 'queries', message: 'Error: connect ECONNREFUSED 127.0.0.1:5432' }],
    ['low', { name: 'listens', message: 'Error: listen EADDRINUSE: address already in use :::3000' }],
    ['low', { name: 'renders pdf', message: 'Error: spawn wkhtmltopdf ENOENT' }],
    ['low', { name: 'downloads', message: 'getaddrinfo ENOTFOUND registry.example' }],
    // assertions: medium
    ['medium', { name: 'adds', message: 'AssertionError: expected 6 to be 7 // Object.is equality' }],
    ['medium', { name: 'adds', message: 'expect(received).toBe(expected)\n\nExpected: 7\nReceived: 6' }],
    ['medium', { name: 'test_adds', message: 'assert (2 * 3) == 7' }],
    ['medium', { name: 'TestAdds', message: 'calc_test.go:13: 2*3 = 6, want 7' }],
    ['medium', { name: 'adds', message: 'six is seven (expected 7, got 6)' }],
    // crashes: high
    ['high', { name: 'reads a user', message: "TypeError: Cannot read properties of undefined (reading 'name')" }],
    ['high', { name: 'renders', message: 'ReferenceError: foo is not defined' }],
    [
      'high',
      { name: 'TestNilPointer', message: 'panic: runtime error: invalid memory address or nil pointer dereference' },
    ],
    ['high', { name: 'native', message: 'Segmentation fault (core dumped)' }],
    ['high', { name: 'async', message: 'Uncaught Error: uncaught boom' }],
    [
      'high',
      {
        name: 'tests::panics',
        message:
          "thread 'tests::panics' panicked at src/lib.rs:16:54:\nindex out of bounds: the len is 0 but the index is 3",
      },
    ],
    // security and data loss: high, whatever the failure looks like
    ['high', { name: 'rejects an expired auth token', message: 'AssertionError: expected 200 to be 401' }],
    ['high', { name: 'login form', message: 'Error: Test timed out in 5000ms.' }],
    ['high', { name: 'escapes', message: 'expected "<script>" not to be rendered: possible XSS' }],
    ['high', { name: 'csrf', file: 'test/csrf.test.ts', message: 'expected false to be true' }],
    ['high', { name: 'hashes the password', message: 'expected undefined to equal "x"' }],
    ['high', { name: 'does not leak', message: 'token leak: response contains the bearer token' }],
    ['high', { name: 'saves', message: 'database file is corrupt' }],
    ['high', { name: 'deletes only the selected rows', message: 'expected 3 to be 1' }],
    ['high', { name: 'syncs', message: 'data loss: 2 records missing after sync' }],
  ] as const)('rates %s: %j', (level, failure) => {
    expect(heuristicCriticality(failure)?.level).toBe(level);
  });

  it('says which rule matched', () => {
    expect(heuristicCriticality({ name: 'q', message: 'connect ECONNREFUSED' })?.reason).toMatch(/^environment:/);
  });

  it('does not mistake words that only contain a security word', () => {
    expect(heuristicCriticality({ name: 'shows the author name', message: 'expected "a" to be "b"' })?.level).toBe(
      'medium',
    );
  });

  it('returns null when nothing matches', () => {
    expect(heuristicCriticality({ name: 'mystery' })).toBeNull();
    expect(heuristicCriticality({ name: 'mystery', message: 'something odd happened' })).toBeNull();
  });
});
