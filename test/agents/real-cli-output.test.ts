import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentActivity, AgentCall } from '../../src/engine/agents/agent.js';
import { extractPlan } from '../../src/engine/agents/plan.js';
import { builtIn } from './helpers.js';

/**
 * What the real CLIs printed, captured by running each one (claude 2.1.197, gemini 0.61.0, qwen 0.15.10)
 * through fixcycle's adapter against a local model-API stand-in: test/fixtures/real-cli-output/<cli>/<scenario>.*
 * (`.json` keeps the version, the script, the exit code and how long the call took). Replayed here through
 * the adapter's own reading.
 */
const DIR = fileURLToPath(new URL('../fixtures/real-cli-output/', import.meta.url));

interface Capture {
  version: string;
  exitCode: number | null;
  seconds: number;
  stdout: string;
  stderr: string;
}

function capture(cli: string, scenario: string): Capture {
  const meta = JSON.parse(readFileSync(`${DIR}${cli}/${scenario}.json`, 'utf8')) as Omit<Capture, 'stdout' | 'stderr'>;
  return {
    ...meta,
    stdout: readFileSync(`${DIR}${cli}/${scenario}.stdout`, 'utf8'),
    stderr: readFileSync(`${DIR}${cli}/${scenario}.stderr`, 'utf8'),
  };
}

function interpret(cli: string, scenario: string, timedOut = false) {
  const c = capture(cli, scenario);
  return builtIn(cli).adapter.interpret({
    exitCode: c.exitCode,
    timedOut,
    stdout: c.stdout.trimEnd(),
    stderr: c.stderr.trimEnd(),
  });
}

function activities(cli: string, scenario: string): AgentActivity[] {
  const c = capture(cli, scenario);
  const adapter = builtIn(cli).adapter;
  const read = (text: string, stream: 'stdout' | 'stderr') =>
    text.split('\n').flatMap((line) => adapter.activity!(line, stream));
  return [...read(c.stdout, 'stdout'), ...read(c.stderr, 'stderr')];
}

/** `killed`: fixcycle killed the CLI (its stall watchdog); the output is what it had printed by then. */
type Expected = { classification: AgentCall['classification']; detail: RegExp; retryInS?: number; killed?: true };

/** Each captured failure, the classification it must get, and the words its detail must start with. */
const EXPECTED: Record<string, Record<string, Expected>> = {
  claude: {
    '429': { classification: 'rate_limited', detail: /^rate-limited: API Error: Request rejected \(429\)/ },
    '429-retry-after': { classification: 'rate_limited', detail: /^rate-limited: /, retryInS: 20 },
    '401': { classification: 'auth_error', detail: /^not authenticated: Invalid API key/ },
    '500': { classification: 'failed', detail: /^API server error: API Error: 500/ },
    '503': { classification: 'rate_limited', detail: /503 Service Unavailable.*\[API overloaded\]$/ },
    '529': { classification: 'rate_limited', detail: /529 Overloaded.*\[API overloaded\]$/ },
    drop: { classification: 'failed', detail: /^API unreachable: .*ECONNRESET/ },
    'drop-mid-stream': { classification: 'failed', detail: /^API unreachable: / },
    hang: { classification: 'timeout', detail: /^API request timed out: Request timed out/ },
  },
  gemini: {
    '429': { classification: 'rate_limited', detail: /^rate-limited: \[API Error: Resource has been exhausted/ },
    '429-retry-after': { classification: 'rate_limited', detail: /^rate-limited: /, retryInS: 20 },
    '401': { classification: 'auth_error', detail: /^not authenticated: .*UNAUTHENTICATED/ },
    '500': { classification: 'failed', detail: /^API server error: .*"code":500/ },
    '503': { classification: 'rate_limited', detail: /overloaded.*\[API overloaded\]$/ },
    '529': { classification: 'rate_limited', detail: /"code":529.*\[API overloaded\]$/ },
    drop: { classification: 'failed', detail: /^API unreachable: .*fetch failed/ },
    'drop-mid-stream': { classification: 'failed', detail: /^API unreachable: \[API Error: terminated\]/ },
    hang: { classification: 'timeout', detail: /killed/, killed: true },
  },
  qwen: {
    // qwen's own loop retries a 429 or 5xx 7 times in silence; the OpenAI SDK's log (OPENAI_LOG=info) shows each
    // failed attempt, and fixcycle stops the call after the third.
    '429': { classification: 'rate_limited', detail: /^rate-limited: post .* failed with status 429/ },
    '429-retry-after': { classification: 'rate_limited', detail: /^rate-limited: post .* failed with status 429/ },
    '500': { classification: 'failed', detail: /^API server error: post .* failed with status 500/ },
    '503': { classification: 'rate_limited', detail: /failed with status 503.*\[API overloaded\]$/ },
    '529': { classification: 'rate_limited', detail: /failed with status 529.*\[API overloaded\]$/ },
    '401': {
      classification: 'auth_error',
      detail: /^not authenticated: \[API Error: 401 Incorrect API key provided\.\]/,
    },
    drop: { classification: 'failed', detail: /^API unreachable: \[API Error: Connection error\./ },
    'drop-mid-stream': {
      classification: 'failed',
      detail: /^API unreachable: \[API Error: terminated \(cause: other side closed\)\]/,
    },
    hang: { classification: 'timeout', detail: /^API request timed out: \[API Error: Request timeout after 20s/ },
  },
};

describe.each(Object.keys(EXPECTED))('the real %s output, replayed', (cli) => {
  it('reads the plan, tokens and cost of a successful analysis', () => {
    const c = capture(cli, 'analyze-success');
    const r = interpret(cli, 'analyze-success');
    expect(c.version).toMatch(/\d+\.\d+\.\d+/);
    expect(r.classification).toBe('ok');
    const plan = extractPlan(r.finalText);
    expect(plan.ok && plan.plan.modification_points).toEqual(['src/math.js:add:1-3']);
    expect(r.tokens).toBeGreaterThan(0);
    expect(activities(cli, 'analyze-success').filter((a) => a.kind === 'usage')).toHaveLength(1);
    // One row of the output pane per message: its first line, not the whole plan.
    expect(activities(cli, 'analyze-success').find((a) => a.kind === 'text')).toEqual({
      kind: 'text',
      text: 'The add function subtracts.',
    });
  });

  it('shows each refused write of the analysis as a denied tool call', () => {
    const denied = activities(cli, 'analyze-writes').filter(
      (a): a is Extract<AgentActivity, { kind: 'tool' }> => a.kind === 'tool' && a.denied === true,
    );
    expect(new Set(denied.map((a) => a.action))).toEqual(
      new Set(['write', 'edit', 'run', ...(cli === 'gemini' ? [] : ['other'])]),
    );
    expect(interpret(cli, 'analyze-writes').classification).toBe('ok');
  });

  it('shows the read and the edit of a fix, and its final message', () => {
    const tools = activities(cli, 'fix-edit').filter(
      (a): a is Extract<AgentActivity, { kind: 'tool' }> => a.kind === 'tool',
    );
    expect(tools.map((a) => a.action)).toEqual(['read', 'edit']);
    expect(tools[1]!.target).toMatch(/src\/math\.js$/);
    expect(interpret(cli, 'fix-edit')).toMatchObject({ classification: 'ok', finalText: 'Fixed add.' });
  });

  it.each(Object.entries(EXPECTED[cli]!))('classifies %s', (scenario, expected) => {
    const before = Date.now();
    const r = interpret(cli, scenario, expected.killed);
    expect(r.classification).toBe(expected.classification);
    expect(r.detail).toMatch(expected.detail);
    if (expected.retryInS === undefined) expect(r.retryAt).toBeUndefined();
    else {
      expect(r.retryAt! - before).toBeGreaterThan((expected.retryInS - 2) * 1000);
      expect(r.retryAt! - Date.now()).toBeLessThan((expected.retryInS + 15) * 1000);
    }
    expect(existsSync(`${DIR}${cli}/${scenario}.json`)).toBe(true);
  });
});

describe('qwen reports every API error inside a success', () => {
  it.each(['401', 'drop', 'drop-mid-stream', 'hang'])('%s: exit 0, is_error false, and still a failure', (scenario) => {
    const c = capture('qwen', scenario);
    expect(c.exitCode).toBe(0);
    expect(c.stdout).toMatch(/"is_error":false/);
    expect(interpret('qwen', scenario).classification).not.toBe('ok');
  });

  it('keeps the answer of a partial stream out of the plan', () => {
    expect(interpret('qwen', 'drop-mid-stream').finalText).toMatch(/^partial\[API Error: /);
  });

  it('shows each failed attempt of its silent retry loop as a retry', () => {
    for (const scenario of ['429', '500', '503', '529']) {
      expect(activities('qwen', scenario).filter((a) => a.kind === 'retry')).toHaveLength(3);
    }
  });
});

describe('gemini streamed events', () => {
  it('shows its retries on stderr as retry activities, but not the last attempt', () => {
    const retries = activities('gemini', '429').filter((a) => a.kind === 'retry');
    expect(retries).toEqual([{ kind: 'retry', detail: expect.stringMatching(/^API call failed.*attempt 1$/) }]);
  });

  it('exits with the HTTP status modulo 256, which fixcycle never reads as a meaning', () => {
    expect([429, 401, 500, 503, 529].map((s) => capture('gemini', String(s)).exitCode)).toEqual([
      173, 145, 244, 247, 17,
    ]);
  });
});

describe('claude streamed events', () => {
  it('shows its silent retries as retry activities, with the wait', () => {
    const retries = activities('claude', '429-retry-after').filter((a) => a.kind === 'retry');
    expect(retries).toEqual([expect.objectContaining({ kind: 'retry', detail: expect.stringMatching(/HTTP 429/) })]);
    expect((retries[0] as Extract<AgentActivity, { kind: 'retry' }>).waitMs).toBeGreaterThanOrEqual(20_000);
  });

  it('reports the error of a failed call as an error activity', () => {
    expect(activities('claude', '401').filter((a) => a.kind === 'error')).toEqual([
      { kind: 'error', detail: expect.stringMatching(/Invalid API key/) },
    ]);
  });
});

describe('the plan in an earlier message', () => {
  it('is kept when the model closes with a line that holds no JSON', () => {
    const c = capture('claude', 'analyze-success');
    const lines = c.stdout.trimEnd().split('\n');
    const result = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    const assistant = JSON.parse(lines[1]!) as { message: { content: { type: string; text: string }[] } };
    const done = { ...assistant, message: { ...assistant.message, content: [{ type: 'text', text: 'Done.' }] } };
    const stdout = [...lines.slice(0, -1), JSON.stringify(done), JSON.stringify({ ...result, result: 'Done.' })].join(
      '\n',
    );
    const r = builtIn('claude').adapter.interpret({ exitCode: 0, timedOut: false, stdout, stderr: '' });
    const plan = extractPlan(r.finalText);
    expect(plan.ok && plan.plan.modification_points).toEqual(['src/math.js:add:1-3']);
    expect(r.finalText).toMatch(/Done\.$/);
  });

  it('is not looked for when the final message has one', () => {
    expect(interpret('claude', 'analyze-writes').finalText).toBe(
      JSON.parse(capture('claude', 'analyze-writes').stdout.trimEnd().split('\n').at(-1)!).result,
    );
  });
});

describe("qwen's retries, made visible by the OpenAI SDK's log (OPENAI_LOG=info)", () => {
  it('reads each failed attempt as a retry activity, and the stopped call as rate-limited', () => {
    const retries = activities('qwen', '429-openai-log').filter((a) => a.kind === 'retry');
    expect(retries.length).toBeGreaterThanOrEqual(5);
    expect(retries[0]).toEqual({ kind: 'retry', detail: 'API call failed (HTTP 429)' });
    expect(interpret('qwen', '429-openai-log')).toMatchObject({
      classification: 'rate_limited',
      detail: expect.stringMatching(/failed with status 429/),
    });
  });
});
