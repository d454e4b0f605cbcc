import { expect, it } from 'vitest';
import { call, describeContract, PLAN_TEXT, TEST_TIMEOUT_MS } from './adapter-contract.js';
import { binDir } from './harness.js';

/**
 * The real Qwen Code (0.15.10 and 0.24.4) through fixcycle's adapter against the stand-in. Its analysis runs
 * in plan mode, which denies write_file, edit, run_shell_command and exit_plan_mode. Every API error comes
 * back as exit 0 and `is_error: false` with the result text `[API Error: ...]`, which fixcycle reads as the
 * failure it is. A 429 or 5xx is retried by a loop no setting reaches (7 attempts, about 75 s; 0.24 retries
 * connection errors and timeouts too, round after round): the OpenAI SDK's log shows each attempt, and fixcycle
 * stops the call after the third, or when the model has made no progress for 30 s.
 */
describeContract({
  name: 'qwen',
  writeAttempts: (repo) => [
    { type: 'tool', name: 'read_file', input: { file_path: `${repo}/src/math.js` } },
    { type: 'tool', name: 'write_file', input: { file_path: `${repo}/src/new.js`, content: 'export const x = 1;\n' } },
    {
      type: 'tool',
      name: 'edit',
      input: { file_path: `${repo}/src/math.js`, old_string: 'return a - b;', new_string: 'return a + b;' },
    },
    { type: 'tool', name: 'run_shell_command', input: { command: 'echo changed > changed.txt' } },
    { type: 'tool', name: 'exit_plan_mode', input: { plan: 'Change add().' } },
  ],
  // Neither qwen nor the SDK log prints the retry-after it got: no reset time to read.
  rateLimitWithReset: null,
  more() {
    // 0.24's bundled rg has no execute bit: fixcycle points qwen at the machine's rg, or at its own search without one.
    const searches = (repo: string) => [
      { type: 'tool' as const, name: 'grep_search', input: { pattern: 'return a', path: repo } },
      { type: 'text' as const, text: PLAN_TEXT },
    ];
    it.each([
      { where: 'with rg on PATH', env: {} as Record<string, string> },
      { where: 'without rg', env: { PATH: [binDir(), process.env.PATH ?? ''].join(':') } },
    ])(
      'searches the repository $where, and no "Ripgrep not available" reaches stderr',
      async ({ env }) => {
        const { result, activities } = await call('qwen', 'analyze', searches, { env });
        expect(result.classification, result.detail).toBe('ok');
        expect(activities.some((a) => a.kind === 'tool' && a.action === 'search' && !a.denied)).toBe(true);
        expect(result.stderr).not.toMatch(/Ripgrep not available/);
      },
      TEST_TIMEOUT_MS,
    );
  },
  // A server that never answers: 0.15 gives up after its 20 s request timeout (`[API Error: Request timeout after
  // 20s`); 0.24 retries it (`connection timed out` in the SDK's log) until the model has made no progress for 30 s,
  // and on a busy machine, where qwen takes 20 s to start, that comes before its first timeout.
});
