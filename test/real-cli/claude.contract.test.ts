import { expect, it } from 'vitest';
import { call, describeContract, TEST_TIMEOUT_MS } from './adapter-contract.js';

/**
 * The real Claude Code (2.1.197 when written) through fixcycle's adapter against the stand-in. Its analysis
 * denies Write, Edit, Bash and EnterWorktree (which would create `.claude/worktrees/<name>` and a branch);
 * a 429's retry-after is a header, which claude waits out once (CLAUDE_CODE_MAX_RETRIES=1) and reports in
 * its `api_retry` event.
 */
describeContract({
  name: 'claude',
  writeAttempts: (repo) => [
    { type: 'tool', name: 'Read', input: { file_path: `${repo}/src/math.js` } },
    { type: 'tool', name: 'Write', input: { file_path: `${repo}/src/new.js`, content: 'export const x = 1;\n' } },
    {
      type: 'tool',
      name: 'Edit',
      input: { file_path: `${repo}/src/math.js`, old_string: 'return a - b;', new_string: 'return a + b;' },
    },
    { type: 'tool', name: 'Bash', input: { command: 'echo changed > changed.txt' } },
    { type: 'tool', name: 'EnterWorktree', input: { name: 'wt1' } },
  ],
  rateLimitWithReset: (seconds) => ({ type: 'error', status: 429, headers: { 'retry-after': String(seconds) } }),
  more() {
    it(
      'keeps CLAUDE_CODE_MAX_RETRIES from the environment: 3 requests at a 429 instead of 2',
      async () => {
        const { result, requests } = await call('claude', 'analyze', () => [{ type: 'error', status: 429 }], {
          env: { CLAUDE_CODE_MAX_RETRIES: '2' },
        });
        expect(result.classification).toBe('rate_limited');
        expect(requests).toHaveLength(3);
      },
      TEST_TIMEOUT_MS,
    );
  },
});
