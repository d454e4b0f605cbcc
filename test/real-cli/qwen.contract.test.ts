import { describeContract } from './adapter-contract.js';

const STALLED = /^stalled: printed nothing for 30 s/;
const SILENT = 'qwen retries a 429 or 5xx 7 times over about 75 s in silence (not configurable); the stall watchdog hands over';

/**
 * The real Qwen Code (0.15.10 when written) through fixcycle's adapter against the stand-in. Its analysis runs
 * in plan mode, which denies write_file, edit, run_shell_command and exit_plan_mode. Every API error comes
 * back as exit 0 and `is_error: false` with the result text `[API Error: ...]`, which fixcycle reads as the
 * failure it is. A 429 or 5xx is retried silently by a loop no setting reaches, so those hand over as a stall.
 */
describeContract({
  name: 'qwen',
  writeAttempts: (repo) => [
    { type: 'tool', name: 'read_file', input: { file_path: `${repo}/src/math.js` } },
    { type: 'tool', name: 'write_file', input: { file_path: `${repo}/src/new.js`, content: 'export const x = 1;\n' } },
    { type: 'tool', name: 'edit', input: { file_path: `${repo}/src/math.js`, old_string: 'return a - b;', new_string: 'return a + b;' } },
    { type: 'tool', name: 'run_shell_command', input: { command: 'echo changed > changed.txt' } },
    { type: 'tool', name: 'exit_plan_mode', input: { plan: 'Change add().' } },
  ],
  // qwen waits out the retry-after in silence and never reports it.
  rateLimitWithReset: null,
  expected: {
    '429 without retry-after': { classification: 'timeout', detail: STALLED, why: SILENT },
    '500': { classification: 'timeout', detail: STALLED, why: SILENT },
    '503': { classification: 'timeout', detail: STALLED, why: SILENT },
    '529': { classification: 'timeout', detail: STALLED, why: SILENT },
    'a server that never answers': { classification: 'timeout', detail: /^API request timed out: \[API Error: Request timeout after 20s/, why: 'qwen gives up after its 20 s request timeout' },
  },
});
