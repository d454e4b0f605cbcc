import { describe, expect, it } from 'vitest';
import { parseReport, summarizeResult } from '../../src/engine/report/index.js';
import type { NormalizedResult } from '../../src/engine/types.js';

function tap(text: string): NormalizedResult {
  const outcome = parseReport(text, 'tap');
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
}

describe('TAP', () => {
  it('reads test points, # SKIP and # TODO, and YAML diagnostics into message and stack', () => {
    const result = tap(`TAP version 14
ok 1 - adds
not ok 2 - multiplies
  ---
  error: 'expected 7, got 6'
  name: 'AssertionError'
  stack: |-
    at t (test/m.js:3:1)
  location: '/repo/test/m.js:3:1'
  ...
ok 3 - later # SKIP not yet
not ok 4 - someday # TODO
1..4
`);
    expect(result.tests.map((t) => [t.id, t.status])).toEqual([
      ['adds', 'passed'],
      ['multiplies', 'failed'],
      ['later', 'skipped'],
      ['someday', 'skipped'],
    ]);
    expect(result.tests[1]).toMatchObject({
      message: 'AssertionError: expected 7, got 6\nat test/m.js:3:1',
      stack: 'at t (test/m.js:3:1)',
      file: '/repo/test/m.js',
    });
    expect(result.truncated).toBe(false);
  });

  it('reads node:test’s duration-only YAML blocks as the duration, also beside directives and other keys', () => {
    const result = tap(`TAP version 13
# Subtest: fast
ok 1 - fast
  ---
  duration_ms: 0.25
  ...
ok 2 - skipped # SKIP later
  ---
  duration_ms: 1.5
  ...
not ok 3 - failing
  ---
  duration_ms: 2
  error: 'boom'
  ...
1..3
`);
    expect(result.tests.map((t) => [t.name, t.status, t.durationMs, t.message])).toEqual([
      ['fast', 'passed', 0.25, undefined],
      ['skipped', 'skipped', 1.5, undefined],
      ['failing', 'failed', 2, 'boom'],
    ]);
  });

  it('walks subtests: a closing point is a group, only leaves are tests', () => {
    const result = tap(`TAP version 14
# Subtest: outer
    # Subtest: inner
    ok 1 - leaf one
    ok 2 - leaf two
    1..2
ok 1 - outer
# Subtest: failing group
    not ok 1 - broken leaf
    1..1
not ok 2 - failing group
1..2
`);
    expect(result.tests.map((t) => [t.id, t.status])).toEqual([
      ['outer > leaf one', 'passed'],
      ['outer > leaf two', 'passed'],
      ['failing group > broken leaf', 'failed'],
    ]);
  });

  it('counts a group that failed with all its subtests passing (a hook threw) as a failed test', () => {
    const result = tap(`TAP version 13
# Subtest: suite
    ok 1 - fine
    1..1
not ok 1 - suite
  ---
  error: 'before hook failed'
  ...
1..1
`);
    expect(result.tests.map((t) => [t.id, t.status, t.message])).toEqual([
      ['suite > fine', 'passed', undefined],
      ['suite', 'failed', 'before hook failed'],
    ]);
  });

  it('turns a top-level "not ok" named for a file into an error outside tests', () => {
    const result = tap(`TAP version 13
# Error: Cannot find module './missing'
not ok 1 - /repo/test/broken.test.js
  ---
  error: 'test failed'
  ...
ok 2 - other
1..2
`);
    expect(result.errors).toEqual([
      { file: '/repo/test/broken.test.js', message: "Error: Cannot find module './missing'" },
    ]);
    expect(result.tests.map((t) => t.id)).toEqual(['other']);
  });

  it('groups tape assertions under their test header and keeps repeated assertion names apart', () => {
    const result = tap(`TAP version 13
# first
ok 1 should be equal
ok 2 should be equal
# second
ok 3 should be equal

1..3
# tests 3
# pass  3

# ok
`);
    expect(result.tests.map((t) => t.id)).toEqual([
      'first > should be equal',
      'first > should be equal (2)',
      'second > should be equal',
    ]);
  });

  it.each([
    ['no plan', 'TAP version 13\nok 1 a\nok 2 b\n'],
    ['fewer points than planned', 'TAP version 13\n1..3\nok 1 a\n'],
    ['only the version line', 'TAP version 13\n'],
    ['a stream cut inside a subtest', 'TAP version 14\n# Subtest: s\n    ok 1 - a\n'],
  ])('marks a stream with %s truncated, so it is never ok', (_what, text) => {
    const result = tap(text);
    expect(result.truncated).toBe(true);
    expect(summarizeResult(result).ok).toBe(false);
  });

  it('reports Bail out! as an error', () => {
    const result = tap('TAP version 13\nok 1 a\nBail out! database down\n');
    expect(result.errors).toEqual([{ message: 'Bail out! database down' }]);
    expect(summarizeResult(result).ok).toBe(false);
  });

  it('reads a skip-all plan as a whole report with no test, which is not ok', () => {
    const result = tap('TAP version 13\n1..0 # SKIP no database\n');
    expect(result).toMatchObject({ tests: [], errors: [], truncated: false });
    expect(summarizeResult(result).ok).toBe(false);
  });

  it.each(['', 'hello world\nthis is not TAP\n', '{"a": 1}'])('refuses text that is not TAP: %j', (text) => {
    const outcome = parseReport(text, 'tap');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatch(text ? /is this a TAP stream/ : /empty/);
  });
});
