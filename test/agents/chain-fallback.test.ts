import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyzeWithChain, fixWithChain, type ChainHooks } from '../../src/engine/agents/chain.js';
import { cooldownFile, Cooldowns } from '../../src/engine/agents/cooldown.js';
import { makePlanJudge } from '../../src/engine/agents/triggers.js';
import { Repo } from '../../src/engine/git.js';
import { builtIn, cleanup, fakeEnv, makeRepo, readLog, tempDir } from './helpers.js';

let repo: string;
let session: string;
let log: string;
let clock: number;

beforeEach(() => {
  repo = makeRepo();
  session = tempDir('fixcycle-session-');
  log = join(session, 'calls.jsonl');
  clock = Date.now();
});
afterEach(() => cleanup(repo, session));

function hooks(cooldowns: Cooldowns): ChainHooks {
  return {
    unavailable: cooldowns.unavailable,
    onCall: (call) => cooldowns.record(call),
    judgePlan: makePlanJudge({ repo, iteration: 1, history: [] }),
  };
}

function request(env: Record<string, string>) {
  return { prompt: 'Analyse the failing tests.', cwd: repo, env: fakeEnv(log, env), timeoutMs: 20_000 };
}

describe('a chain whose first CLI is rate-limited', () => {
  it('falls back to the next agent and skips the first until its announced reset', async () => {
    const cooldowns = await Cooldowns.load(session, { now: () => clock });
    const chain = [builtIn('gemini'), builtIn('claude')];
    const env = { FAKE_GEMINI_MODE: 'rate_limit', FAKE_CLAUDE_MODE: 'success' };

    const first = await analyzeWithChain(chain, request(env), hooks(cooldowns));
    expect(first.agent).toBe('claude');
    expect(first.plan?.modification_points).toEqual(['src/math.js:add:1-3']);
    expect(first.calls.map((c) => [c.agent, c.classification])).toEqual([
      ['gemini', 'rate_limited'],
      ['claude', 'ok'],
    ]);
    expect(readLog(log).map((c) => c.cli)).toEqual(['gemini', 'claude']);

    const saved = JSON.parse(readFileSync(cooldownFile(session), 'utf8')) as Record<
      string,
      { until: string; source: string }
    >;
    expect(saved.gemini!.source).toBe('announced');
    expect(Date.parse(saved.gemini!.until)).toBe(first.calls[0]!.retryAt);

    // The next iteration, in a resumed process: gemini is still cooling down and is not even started.
    const resumed = await Cooldowns.load(session, { now: () => clock + 5_000 });
    expect(resumed.unavailable('gemini')).toMatch(/cooling down after a rate limit until .* \(its announced reset\)/);
    const second = await analyzeWithChain(chain, request(env), hooks(resumed));
    expect(second.agent).toBe('claude');
    expect(second.calls.map((c) => c.agent)).toEqual(['claude']);
    expect(readLog(log).map((c) => c.cli)).toEqual(['gemini', 'claude', 'claude']);

    // Past the announced reset (42 s), gemini is asked first again; its success clears the cool-down.
    clock += 43_000;
    const third = await analyzeWithChain(chain, request({ FAKE_GEMINI_MODE: 'success' }), hooks(resumed));
    expect(third.agent).toBe('gemini');
    expect(resumed.entry('gemini')).toBeUndefined();
    expect(JSON.parse(readFileSync(cooldownFile(session), 'utf8'))).toEqual({});
  });

  it('has the next agent apply the fix after undoing the first attempt, and cools the first agent down', async () => {
    const cooldowns = await Cooldowns.load(session, { now: () => clock });
    const git = await Repo.open(repo);
    let undone = 0;
    const undo = async (): Promise<void> => {
      undone++;
      await git.restoreFiles(await git.changedFiles());
    };
    const edit = JSON.stringify([
      { path: 'src/math.js', content: 'export function add(a, b) {\n  return a + b;\n}\n' },
    ]);
    const attempt = await fixWithChain(
      [builtIn('codex'), builtIn('claude')],
      request({ FAKE_CODEX_MODE: 'rate_limit', FAKE_CLI_EDIT: edit }),
      undo,
      hooks(cooldowns),
    );
    expect(attempt.agent).toBe('claude');
    expect(undone).toBe(1);
    expect(await git.changedFiles()).toEqual(['src/math.js']);
    expect(cooldowns.unavailable('codex')).toMatch(/cooling down/);
    expect(existsSync(cooldownFile(session))).toBe(true);
  });
});

describe('cool-downs', () => {
  const call = (fields: Record<string, unknown>) =>
    ({
      agent: 'qwen',
      role: 'analyze',
      exitCode: 0,
      timedOut: false,
      durationMs: 10,
      finalText: '',
      stdout: '',
      stderr: '',
      classification: 'rate_limited',
      ...fields,
    }) as never;

  it('backs off 5 minutes, then 10, when the CLI announces no reset', async () => {
    const cooldowns = await Cooldowns.load(session, { now: () => clock });
    await cooldowns.record(call({}));
    expect(Date.parse(cooldowns.entry('qwen')!.until)).toBe(clock + 5 * 60_000);
    expect(cooldowns.entry('qwen')!.source).toBe('backoff');
    clock += 5 * 60_000 + 1;
    expect(cooldowns.unavailable('qwen')).toBeNull();
    await cooldowns.record(call({}));
    expect(Date.parse(cooldowns.entry('qwen')!.until)).toBe(clock + 10 * 60_000);
    expect(cooldowns.nextAvailableAt(['qwen', 'claude'])).toBe(clock + 10 * 60_000);
  });

  it('keeps an agent that failed authentication out for the rest of the run only', async () => {
    const cooldowns = await Cooldowns.load(session, { now: () => clock });
    await cooldowns.record(call({ classification: 'auth_error', detail: 'not authenticated: Invalid API key' }));
    expect(cooldowns.unavailable('qwen')).toMatch(/not authenticated in this run/);
    expect((await Cooldowns.load(session)).unavailable('qwen')).toBeNull();
  });
});
