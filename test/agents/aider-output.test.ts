import { describe, expect, it } from 'vitest';
import { aiderActivity, aiderAdapter } from '../../src/engine/agents/adapters/aider.js';

// aider's own words (from its source, 0.86: base_coder.py, exceptions.py): it prints them on stdout and exits 0
// with --message whatever happened.
const BANNER = 'Aider v0.86.1\nMain model: openai/gpt-4o with diff edit format\nGit repo: .git with 3 files\n';
const RATE_LIMITED =
  'litellm.RateLimitError: RateLimitError: OpenAIException - rate limited\nThe API provider has rate limited you. Try again later or check your quotas.\nRetrying in 0.2 seconds...';
const DOWN =
  "litellm.InternalServerError: InternalServerError: OpenAIException - stand-in error 503\nThe API provider's servers are down or overloaded.\nRetrying in 0.5 seconds...";
const interpret = (stdout: string) => aiderAdapter.interpret({ exitCode: 0, timedOut: false, stdout, stderr: '' });

describe('aider output, exit 0 whatever happened', () => {
  it('fails a run whose every model call failed, as what the errors say', () => {
    expect(interpret(`${BANNER}${RATE_LIMITED}\n${RATE_LIMITED}\n`)).toMatchObject({ classification: 'rate_limited' });
    expect(
      interpret(
        `${BANNER}litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect API key provided\nThe API provider is not able to authenticate you. Check your API key.\n`,
      ),
    ).toMatchObject({ classification: 'auth_error' });
    expect(interpret(`${BANNER}${DOWN}\n`).classification).not.toBe('ok');
  });

  it('accepts a run whose retry recovered and whose edit was applied, with its tokens and cost', () => {
    const result = interpret(
      `${BANNER}${RATE_LIMITED}\nsrc/math.js\nApplied edit to src/math.js\nTokens: 4.2k sent, 310 received. Cost: $0.02 message, $0.02 session.\n`,
    );
    expect(result).toMatchObject({ classification: 'ok', tokens: 4510, costUsd: 0.02 });
  });

  it('shows applied edits, retries and errors as activities', () => {
    expect(aiderActivity('Applied edit to src/math.js')).toEqual([
      { kind: 'tool', tool: 'edit', action: 'edit', target: 'src/math.js' },
    ]);
    expect(aiderActivity('Retrying in 0.5 seconds...')).toEqual([
      { kind: 'retry', detail: 'model call failed', waitMs: 500 },
    ]);
    expect(
      aiderActivity('The API provider has rate limited you. Try again later or check your quotas.')[0],
    ).toMatchObject({ kind: 'error' });
    expect(aiderActivity('Git repo: .git with 3 files')).toEqual([]);
  });

  it('keeps its history files out of the repository and stops after its third retry', () => {
    const command = aiderAdapter.buildCommand({ name: 'aider', adapter: 'aider', command: [] }, 'fix', {
      privateDir: '/s/.process/agents/aider',
      userEnv: {},
    });
    expect(command.argv).toEqual(
      expect.arrayContaining([
        '--chat-history-file',
        '/s/.process/agents/aider/aider/chat.history.md',
        '--input-history-file',
        '/s/.process/agents/aider/aider/input.history',
      ]),
    );
    expect(command.env).toEqual({ LITELLM_LOCAL_MODEL_COST_MAP: 'True' });
    expect(command.maxRetries).toBe(2);
  });
});
