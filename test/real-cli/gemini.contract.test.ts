import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { call, describeContract, TEST_TIMEOUT_MS } from './adapter-contract.js';

/**
 * The real Gemini CLI (0.61.0 when written) through fixcycle's adapter against the stand-in. Without
 * `--skip-trust` every run in a fresh repository exits 55. Its analysis leaves out write_file, replace and
 * run_shell_command; a 429's wait is Google's RetryInfo in the body (the retry-after header is ignored),
 * which gemini prints as "Suggested retry after 10s.".
 */
describeContract({
  name: 'gemini',
  writeAttempts: (repo) => [
    { type: 'tool', name: 'read_file', input: { file_path: 'src/math.js' } },
    { type: 'tool', name: 'write_file', input: { file_path: `${repo}/src/new.js`, content: 'export const x = 1;\n' } },
    {
      type: 'tool',
      name: 'replace',
      input: {
        file_path: `${repo}/src/math.js`,
        instruction: 'add',
        old_string: 'return a - b;',
        new_string: 'return a + b;',
      },
    },
    { type: 'tool', name: 'run_shell_command', input: { command: 'echo changed > changed.txt' } },
  ],
  rateLimitWithReset: (seconds) => ({
    type: 'error',
    status: 429,
    body: {
      error: {
        code: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` }],
      },
    },
  }),
  // Printed when TERM or COLORTERM announce fewer colours (CI, a plain xterm): the terminal's doing, not the arguments'.
  knownNoise: /(256-color|True color \(24-bit\)) support not detected/,
  more() {
    it(
      'keeps general.maxAttempts from ~/.gemini/settings.json: 3 attempts at a 429 instead of 2',
      async () => {
        const { result, requests } = await call('gemini', 'analyze', () => [{ type: 'error', status: 429 }], {
          home: (home) => {
            const file = join(home, '.gemini', 'settings.json');
            const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
            writeFileSync(file, JSON.stringify({ ...settings, general: { ...settings.general, maxAttempts: 3 } }));
          },
        });
        expect(result.classification).toBe('rate_limited');
        expect(requests).toHaveLength(3);
      },
      TEST_TIMEOUT_MS,
    );
  },
});
