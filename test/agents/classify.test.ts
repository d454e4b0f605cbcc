import { describe, expect, it } from 'vitest';
import { classifyErrorText, interpretCliRun } from '../../src/engine/agents/classify.js';
import { errorKind, httpStatuses } from '../../src/engine/agents/error-kind.js';
import { findResetTime } from '../../src/engine/agents/reset-time.js';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0); // 1 June 2026, 12:00 UTC
const S = 1000;

describe('classifyErrorText', () => {
  it.each([
    ['HTTP 429 Too Many Requests', 'rate_limited'],
    ['Resource has been exhausted (e.g. check quota).', 'rate_limited'],
    ['"status": "RESOURCE_EXHAUSTED"', 'rate_limited'],
    ["You've hit your usage limit. Upgrade to Pro", 'rate_limited'],
    ['Claude AI usage limit reached|1750708800', 'rate_limited'],
    ['You exceeded your current quota', 'rate_limited'],
    ['{"type":"overloaded_error","message":"Overloaded"}', 'rate_limited'],
    ['This request would exceed your rate limit.', 'rate_limited'],
    ['Invalid API key · Please run /login', 'auth_error'],
    ['unexpected status 401 Unauthorized', 'auth_error'],
    ['authentication_error: invalid x-api-key', 'auth_error'],
    ['API key not valid. Please pass a valid API key.', 'auth_error'],
    ['Please set an Auth method in your settings.json', 'auth_error'],
    ['OAuth token has expired', 'auth_error'],
    ['ENOENT: no such file or directory', null],
    ['Segmentation fault', null],
  ] as const)('%s -> %s', (text, expected) => {
    expect(classifyErrorText(text)).toBe(expected);
  });
});

describe('errorKind, from what the real CLIs print', () => {
  it.each([
    [
      'gemini 429',
      '[API Error: Resource has been exhausted (e.g. check quota).]\nPlease wait and try again later. To increase your limits, request a quota increase through AI Studio, or switch to another /auth method',
      'rate_limit',
    ],
    ['gemini spent quota', 'You exceeded your current quota, please check your plan and billing details.', 'quota'],
    [
      'gemini 401',
      '[API Error: {"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}]',
      'auth',
    ],
    ['gemini headless auth type', 'Invalid auth method selected.', 'auth'],
    ['gemini dropped stream', 'terminated', 'connection'],
    ['gemini refused', 'exception TypeError: fetch failed sending request', 'connection'],
    [
      'claude 429',
      'API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit',
      'rate_limit',
    ],
    ['claude 529', 'API Error: Repeated 529 Overloaded errors. The API is at capacity', 'overloaded'],
    ['claude 500', 'API Error: 500 Internal server error. This is a server-side issue, usually temporary', 'server'],
    ['claude 401', 'Invalid API key · Fix external API key (HTTP 401)', 'auth'],
    ['claude refused', 'API Error: Unable to connect to API (ConnectionRefused)', 'connection'],
    ['claude hang', 'Request timed out', 'timeout'],
    ['qwen 429', '[API Error: 429 Requests rate limit exceeded, please try again later.]', 'rate_limit'],
    ['qwen 503', '[API Error: 503 service overloaded]', 'overloaded'],
    ['qwen refused', '[API Error: Connection error. (cause: fetch failed)]', 'connection'],
    ['qwen mid-stream close', 'partial[API Error: terminated (cause: other side closed)]', 'connection'],
    [
      'qwen request timeout',
      '[API Error: Request timeout after 20s. Try reducing input length or increasing timeout in config.]',
      'timeout',
    ],
    ['nothing known', 'ENOENT: no such file or directory', null],
  ] as const)('%s', (_name, text, kind) => {
    expect(errorKind(text)).toBe(kind);
  });

  it('never takes a number in a stack dump for an HTTP status', () => {
    const dump =
      "TypeError: terminated\n    at Fetch.onAborted (node:internal/deps/undici:11190:53)\n  [cause]: SocketError: other side closed {\n    code: 'UND_ERR_SOCKET',\n    socket: { localPort: 40122, remotePort: 45731, bytesWritten: 1033, bytesRead: 401 }\n  }";
    expect(httpStatuses(dump)).toEqual([]);
    expect(errorKind(dump)).toBe('connection');
    expect(classifyErrorText(dump)).toBeNull();
  });

  it('reads statuses written as statuses', () => {
    expect(
      new Set(
        httpStatuses('status: 429 · "code": 401 · Request rejected (429) · HTTP 503 · 500 Internal Server Error'),
      ),
    ).toEqual(new Set([429, 401, 503, 500]));
  });
});

describe('findResetTime', () => {
  it.each([
    ['Claude AI usage limit reached|<epoch>', `Claude AI usage limit reached|${NOW / S + 3600}`, NOW + 3600 * S],
    [
      'try again in 2 days 17 hours 14 minutes',
      "You've hit your usage limit. Upgrade to Pro or try again in 2 days 17 hours 14 minutes.",
      NOW + (2 * 86400 + 17 * 3600 + 14 * 60) * S,
    ],
    ['Please retry in 37.5s', 'Quota exceeded. Please retry in 37.5s.', NOW + 37_500],
    [
      'Google RetryInfo retryDelay',
      '"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"42s"}]',
      NOW + 42 * S,
    ],
    ['a retry-after header', '{"responseHeaders":{"retry-after":"30"}}', NOW + 30 * S],
    ['resets_at in seconds', '{"type":"usage_limit_reached","resets_at":1780322400}', 1780322400 * S],
    ['resets_in_seconds', '{"resets_in_seconds":602705}', NOW + 602705 * S],
    [
      'reset at 9am in a named zone',
      'Claude usage limit reached. Your limit will reset at 9am (America/Chicago).',
      Date.UTC(2026, 5, 1, 14, 0),
    ],
    ['resets 4pm in a named zone', "You've hit your limit · resets 4pm (America/Recife)", Date.UTC(2026, 5, 1, 19, 0)],
    ['a clock time already past today means tomorrow', 'resets 7am (UTC)', Date.UTC(2026, 5, 2, 7, 0)],
    [
      "gemini's suggested retry",
      '[API Error: Resource has been exhausted (e.g. check quota).\nSuggested retry after 30s.]',
      NOW + 30 * S,
    ],
  ])('%s', (_name, text, expected) => {
    expect(findResetTime(text, NOW)).toBe(expected);
  });

  it('reads a date with a time in a named zone', () => {
    const april = Date.UTC(2026, 3, 22, 12, 0);
    expect(findResetTime("You've hit your limit · resets Apr 23 at 4pm (America/Recife)", april)).toBe(
      Date.UTC(2026, 3, 23, 19, 0),
    );
  });

  it('reads a local date and clock time', () => {
    const now = new Date(2026, 5, 10, 9, 0).getTime();
    expect(findResetTime('Upgrade to Plus to continue using Codex, or try again at Jul 5th, 2026 8:19 PM.', now)).toBe(
      new Date(2026, 6, 5, 20, 19).getTime(),
    );
    expect(findResetTime('try again at 3:45 PM', now)).toBe(new Date(2026, 5, 10, 15, 45).getTime());
  });

  it.each([
    ['no time at all', 'Rate limit exceeded. Please try again later.'],
    ['a reset already past', 'Claude AI usage limit reached|1000000000'],
    ['a reset implausibly far away', 'try again in 400 days'],
  ])('gives none for %s', (_name, text) => {
    expect(findResetTime(text, NOW)).toBeUndefined();
  });
});

describe('interpretCliRun', () => {
  const ok = { exitCode: 0, timedOut: false, stdout: '{}', stderr: '' };

  it('trusts a structured success even when the answer talks about rate limits', () => {
    const r = interpretCliRun(
      'claude',
      { ...ok, stderr: 'retrying after 429' },
      { structured: true, finalText: 'Added a rate limit of 429 per minute', tokens: 10, costUsd: 0.01 },
    );
    expect(r).toEqual({
      classification: 'ok',
      finalText: 'Added a rate limit of 429 per minute',
      tokens: 10,
      costUsd: 0.01,
    });
  });

  it('fails a structured error that names no known cause, even on exit 0', () => {
    const r = interpretCliRun('gemini', ok, {
      structured: true,
      error: 'Model stream ended with an empty response',
      finalText: '',
    });
    expect(r).toMatchObject({
      classification: 'failed',
      detail: 'gemini reported an error: Model stream ended with an empty response',
    });
  });

  it('fails a non-zero exit even when the output looked fine', () => {
    const r = interpretCliRun(
      'codex',
      { ...ok, exitCode: 3, stderr: 'panicked at codex-rs/exec' },
      { structured: true, finalText: 'done' },
    );
    expect(r).toMatchObject({ classification: 'failed', detail: 'exited 3: panicked at codex-rs/exec' });
  });

  it('reads the rate limit from stderr when the output is not the promised JSON', () => {
    const r = interpretCliRun(
      'gemini',
      { ...ok, exitCode: 1, stdout: '', stderr: 'Error: 429 Too Many Requests. Please retry in 10s' },
      { structured: false, finalText: '' },
      NOW,
    );
    expect(r).toMatchObject({ classification: 'rate_limited', retryAt: NOW + 10 * S });
  });

  it('says a silent exit 0 without output is unreadable', () => {
    expect(interpretCliRun('qwen', { ...ok, stdout: '' }, { structured: false, finalText: '' })).toMatchObject({
      classification: 'failed',
      detail: 'unreadable output from qwen (nothing printed)',
    });
  });

  it('keeps the tokens of a call that timed out', () => {
    expect(
      interpretCliRun(
        'claude',
        { ...ok, exitCode: null, timedOut: true },
        { structured: false, finalText: '', tokens: 5 },
      ),
    ).toMatchObject({ classification: 'timeout', tokens: 5 });
  });
});
