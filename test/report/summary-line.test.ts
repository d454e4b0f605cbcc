import { describe, expect, it } from 'vitest';
import { parseSummaryLine } from '../../src/engine/report/index.js';

describe('summary-line fallback', () => {
  it.each([
    [
      'node:test TAP',
      '# tests 5\n# suites 1\n# pass 3\n# fail 1\n# cancelled 0\n# skipped 1\n# todo 0\n# duration_ms 12.3',
      { runner: 'node:test', passed: 3, failed: 1, skipped: 1 },
    ],
    [
      'node:test spec',
      'ℹ tests 4\nℹ suites 0\nℹ pass 2\nℹ fail 1\nℹ cancelled 1\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 40',
      { runner: 'node:test', passed: 2, failed: 2, skipped: 0 },
    ],
    ['tape', '1..8\n# tests 8\n# pass  7\n# fail  1\n', { runner: 'tape', unit: 'assertions', passed: 7, failed: 1 }],
    [
      'mocha',
      '  3 passing (20ms)\n  1 pending\n  2 failing\n\n  1) a:\n',
      { runner: 'mocha', passed: 3, failed: 2, skipped: 1 },
    ],
    [
      'jest',
      'Test Suites: 1 failed, 1 total\nTests:       1 failed, 3 passed, 4 total\nSnapshots:   0 total',
      { runner: 'jest', passed: 3, failed: 1, skipped: 0 },
    ],
    [
      'vitest',
      ' Test Files  1 failed (1)\n      Tests  1 failed | 3 passed (4)\n   Start at  10:00:00',
      { runner: 'vitest', passed: 3, failed: 1 },
    ],
    [
      'vitest with colours and unhandled errors',
      '\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[1m\u001b[32m3 passed\u001b[39m\u001b[22m\u001b[90m (4)\u001b[39m\n\u001b[2m     Errors \u001b[22m \u001b[1m\u001b[31m1 error\u001b[39m',
      { runner: 'vitest', passed: 3, failed: 1, errors: 1 },
    ],
    [
      'pytest',
      '==================== 1 failed, 3 passed, 2 skipped, 1 xfailed, 1 error in 0.12s ====================',
      { runner: 'pytest', passed: 3, failed: 1, skipped: 3, errors: 1 },
    ],
    [
      'pytest with no tests',
      '============================ no tests ran in 0.01s =============================',
      { runner: 'pytest', passed: 0, failed: 0 },
    ],
    [
      'go packages',
      'ok  \tex/a\t0.01s\nFAIL\tex/b\t0.02s\nFAIL\tex/c [build failed]\n?   \tex/d\t[no test files]\nFAIL',
      { runner: 'go', unit: 'packages', passed: 1, failed: 1, errors: 1, skipped: 1 },
    ],
    [
      'cargo, summed over binaries',
      'test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n\ntest result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out',
      { runner: 'cargo', passed: 5, failed: 1, skipped: 1 },
    ],
    [
      'the plain line',
      'running…\nResults: 3 passed, 1 failed, 2 skipped\n',
      { runner: 'plain', passed: 3, failed: 1, skipped: 2 },
    ],
  ])('reads %s', (_what, output, expected) => {
    expect(parseSummaryLine(output)).toMatchObject({ errors: 0, skipped: 0, unit: 'tests', ...expected });
  });

  it('takes the last summary when a run printed several', () => {
    expect(parseSummaryLine('Tests:       2 failed, 2 total\n…rerun…\nTests:       2 passed, 2 total\n')).toMatchObject(
      { passed: 2, failed: 0 },
    );
  });

  it.each([
    '',
    'Error: Cannot find module',
    'compiling…\nerror: could not compile `x`',
    '3 passed and 1 failed, roughly',
  ])('returns null when there is no summary: %j', (output) => {
    expect(parseSummaryLine(output)).toBeNull();
  });
});
