import { describe, expect, it } from 'vitest';
import { parseReport, summarizeResult } from '../../src/engine/report/index.js';
import type { NormalizedResult } from '../../src/engine/types.js';

const event = (fields: Record<string, unknown>) =>
  JSON.stringify({ Time: '2025-01-01T00:00:00Z', Package: 'ex/p', ...fields });

function go(lines: string[]): NormalizedResult {
  const outcome = parseReport(lines.join('\n') + '\n', 'go-json');
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
}

describe('go test -json', () => {
  it('reads per-test results with their output as the message, in milliseconds', () => {
    const result = go([
      event({ Action: 'run', Test: 'TestA' }),
      event({ Action: 'output', Test: 'TestA', Output: '=== RUN   TestA\n' }),
      event({ Action: 'output', Test: 'TestA', Output: '    a_test.go:9: got 1, want 2\n' }),
      event({ Action: 'output', Test: 'TestA', Output: '--- FAIL: TestA (0.01s)\n' }),
      event({ Action: 'fail', Test: 'TestA', Elapsed: 0.012 }),
      event({ Action: 'run', Test: 'TestB' }),
      event({ Action: 'skip', Test: 'TestB', Elapsed: 0 }),
      event({ Action: 'fail', Elapsed: 0.02 }),
    ]);
    expect(result.tests).toEqual([
      {
        id: 'ex/p::TestA',
        name: 'TestA',
        file: 'ex/p',
        status: 'failed',
        durationMs: 12,
        message: 'a_test.go:9: got 1, want 2',
      },
      { id: 'ex/p::TestB', name: 'TestB', file: 'ex/p', status: 'skipped', durationMs: 0 },
    ]);
    expect(result.errors).toEqual([]);
  });

  it('counts subtests and not their parent, unless the parent failed on its own', () => {
    const result = go([
      event({ Action: 'run', Test: 'TestT' }),
      event({ Action: 'run', Test: 'TestT/a' }),
      event({ Action: 'pass', Test: 'TestT/a' }),
      event({ Action: 'pass', Test: 'TestT' }),
      event({ Action: 'run', Test: 'TestU' }),
      event({ Action: 'run', Test: 'TestU/b' }),
      event({ Action: 'pass', Test: 'TestU/b' }),
      event({ Action: 'fail', Test: 'TestU' }),
      event({ Action: 'fail' }),
    ]);
    expect(result.tests.map((t) => [t.name, t.status])).toEqual([
      ['TestT/a', 'passed'],
      ['TestU', 'failed'],
      ['TestU/b', 'passed'],
    ]);
  });

  it('turns a package that failed with no failing test (TestMain, init panic) into an error', () => {
    const result = go([
      event({ Action: 'output', Output: 'panic: init failed\n' }),
      event({ Action: 'fail', Elapsed: 0 }),
    ]);
    expect(result.errors).toEqual([{ file: 'ex/p', message: 'panic: init failed' }]);
  });

  it('fails a test that never finished in a package that did (a timeout panic)', () => {
    const result = go([
      event({ Action: 'run', Test: 'TestSlow' }),
      event({ Action: 'output', Output: 'panic: test timed out after 1s\n' }),
      event({ Action: 'fail', Elapsed: 1 }),
    ]);
    expect(result.tests).toEqual([
      expect.objectContaining({ name: 'TestSlow', status: 'failed', message: 'panic: test timed out after 1s' }),
    ]);
  });

  it('reads the plain `FAIL <pkg> [build failed]` line inside the stream as an error, with the compiler lines before it', () => {
    const result = go([
      '# ex/broken',
      'broken.go:3:1: syntax error',
      'FAIL\tex/broken [build failed]',
      event({ Action: 'run', Test: 'TestA' }),
      event({ Action: 'pass', Test: 'TestA' }),
      event({ Action: 'pass' }),
    ]);
    expect(result.errors).toEqual([{ file: 'ex/broken', message: 'build failed:\nbroken.go:3:1: syntax error' }]);
    expect(summarizeResult(result)).toMatchObject({ passed: 1, errors: 1, ok: false });
  });

  it('marks a stream that stops before a package’s result truncated and leaves unfinished tests out', () => {
    const result = go([
      event({ Action: 'run', Test: 'TestA' }),
      event({ Action: 'pass', Test: 'TestA' }),
      event({ Action: 'run', Test: 'TestB' }),
    ]);
    expect(result.truncated).toBe(true);
    expect(result.tests.map((t) => t.name)).toEqual(['TestA']);
    expect(summarizeResult(result).ok).toBe(false);
  });

  it.each(['', 'ok  \tex/p\t0.01s\n', 'not json at all'])('refuses a stream with no events: %j', (text) => {
    const outcome = parseReport(text, 'go-json');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatch(/no `go test -json` events/);
  });
});
