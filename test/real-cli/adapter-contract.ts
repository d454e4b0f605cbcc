import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/engine/agents/adapters/index.js';
import type { AgentActivity, AgentCall, AgentRole } from '../../src/engine/agents/agent.js';
import { extractPlan } from '../../src/engine/agents/plan.js';
import { resolveAgents } from '../../src/engine/agents/resolve.js';
import { runAgent } from '../../src/engine/agents/run-agent.js';
import { cleanup, makeRepo, tempDir } from '../agents/helpers.js';
import { findRealCli, gatewayEnv, missingRealClis, type RealCliName } from './harness.js';
import { startStandIn, type RecordedRequest, type StandInStep } from './stand-in/server.js';

/** A rate-limited or unreachable API hands over to the next agent within this (issue 8). */
export const HAND_OVER_MS = 60_000;

/** Vitest's own limit per test: above the bound, so a slow hand-over fails on the bound, not on the timeout. */
export const TEST_TIMEOUT_MS = 150_000;

/** What one CLI's contract needs beyond the shared scenarios: its own tools and error bodies. */
export interface CliContract {
  name: RealCliName;
  /** Analysis tool calls that would change the repository if they ran (absolute paths under `repo`). */
  writeAttempts(repo: string): StandInStep[];
  /** A 429 that says when to come back, the way this API says it (header or body), `seconds` ahead; null when the CLI cannot report it. */
  rateLimitWithReset: ((seconds: number) => StandInStep) | null;
  /** Tests of this CLI alone, run alongside the shared ones. */
  more?(): void;
  /** Where this CLI's real behaviour differs from the shared expectation, by failure name, and why. */
  expected?: Record<string, { classification: AgentCall['classification']; detail: RegExp; why: string }>;
  /** Lines on stderr that are the CLI's own chatter on every run, not caused by fixcycle's arguments. */
  knownNoise?: RegExp;
}

/** The plan a terse real model might give: a file path for a modification point, a short analysis. */
const PLAN = {
  root_causes: ['add() in src/math.js subtracts instead of adding.'],
  modification_points: ['src/math.js'],
  affected_tests: ['test/math.test.js::adds two numbers'],
  confidence_score: 0.85,
  approach: 'Return a + b.',
};
export const PLAN_TEXT = `add() subtracts.\n\n\`\`\`json\n${JSON.stringify(PLAN, null, 2)}\n\`\`\``;

const dirs: string[] = [];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** How a user set up the CLI beyond the gateway: their own variables and files in their home. */
export interface UserSetup {
  env?: Record<string, string>;
  home?(home: string): void;
}

/** One call of the real CLI through fixcycle's own adapter, against a stand-in scripted with `steps`. */
export async function call(
  name: RealCliName,
  role: AgentRole,
  steps: (repo: string) => StandInStep[],
  user: UserSetup = {},
) {
  const repo = makeRepo();
  const home = tempDir('fixcycle-real-home-');
  const privateDir = tempDir('fixcycle-private-');
  dirs.push(repo, home, privateDir);
  const standIn = await startStandIn(steps(repo));
  const env = gatewayEnv(name, standIn, home);
  user.home?.(home);
  const [agent] = resolveAgents({ agentNames: [name] }, {});
  const activities: AgentActivity[] = [];
  const started = Date.now();
  try {
    const result = await runAgent(agent!, {
      role,
      prompt:
        'The test "adds two numbers" in test/math.test.js fails. Find the root cause and answer with the JSON plan.',
      cwd: repo,
      env: { ...env, ...user.env },
      timeoutMs: 150_000,
      privateDir,
      onActivity: (a) => activities.push(a),
    });
    return {
      result,
      repo,
      activities,
      ms: Date.now() - started,
      requests: standIn.requests.filter((r: RecordedRequest) => !r.auxiliary && r.method === 'POST'),
    };
  } finally {
    await standIn.close();
  }
}

/** Notes a hand-over time for the table `npm run contract` prints (scripts/contract.mjs sets the file). */
function recordHandOver(name: RealCliName, contract: string, ms: number): void {
  const file = process.env.FIXCYCLE_CONTRACT_TIMES;
  if (!file) return;
  const found = findRealCli(name);
  appendFileSync(
    file,
    `${JSON.stringify({ cli: name, version: 'version' in found ? found.version : undefined, contract, ms })}\n`,
  );
}

function explain(result: AgentCall): string {
  return `${result.classification}: ${result.detail ?? ''}\n--- stdout\n${result.stdout.slice(-2000)}\n--- stderr\n${result.stderr.slice(-2000)}`;
}

/** The failures every adapter must classify and hand over within the bound. */
const FAILURES: { name: string; steps: StandInStep[]; classification: AgentCall['classification']; detail: RegExp }[] =
  [
    {
      name: '429 without retry-after',
      steps: [{ type: 'error', status: 429 }],
      classification: 'rate_limited',
      detail: /^rate-limited: /,
    },
    {
      name: '401',
      steps: [{ type: 'error', status: 401 }],
      classification: 'auth_error',
      detail: /^not authenticated: /,
    },
    { name: '500', steps: [{ type: 'error', status: 500 }], classification: 'failed', detail: /^API server error: / },
    {
      name: '503',
      steps: [{ type: 'error', status: 503 }],
      classification: 'rate_limited',
      detail: /^rate-limited: .*\[API overloaded\]/,
    },
    {
      name: '529',
      steps: [{ type: 'error', status: 529 }],
      classification: 'rate_limited',
      detail: /^rate-limited: .*\[API overloaded\]/,
    },
    { name: 'a dropped connection', steps: [{ type: 'drop' }], classification: 'failed', detail: /^API unreachable: / },
    {
      name: 'a connection dropped mid-stream',
      steps: [{ type: 'drop-mid-stream' }],
      classification: 'failed',
      detail: /^API unreachable: /,
    },
    {
      name: 'a server that never answers',
      steps: [{ type: 'hang' }],
      classification: 'timeout',
      detail: /timed out|stalled/,
    },
  ];

/** The contract suite of one CLI: skipped with a message naming what is missing when it is not installed. */
export function describeContract(contract: CliContract): void {
  const missing = missingRealClis(contract.name);
  afterAll(() => cleanup(...dirs.splice(0)));

  describe
    .skipIf(missing !== undefined)
    .concurrent(`the real ${contract.name} through fixcycle's adapter${missing ? ` (${missing})` : ''}`, () => {
      it(
        'analysis returns a plan fixcycle reads, with tokens, and no warning caused by the arguments',
        async () => {
          const { result, activities } = await call(contract.name, 'analyze', () => [
            { type: 'text', text: PLAN_TEXT },
          ]);
          expect(result.classification, explain(result)).toBe('ok');
          const plan = extractPlan(result.finalText);
          expect(plan.ok && plan.plan.modification_points).toEqual(['src/math.js']);
          expect(result.tokens).toBeGreaterThan(0);
          expect(activities.some((a) => a.kind === 'usage')).toBe(true);
          const warnings = result.stderr
            .split('\n')
            .filter(
              (l) =>
                /warn|deprecat|unknown|matches no known tool|invalid|not supported/i.test(l) &&
                !(contract.knownNoise?.test(l) ?? false),
            );
          expect(warnings).toEqual([]);
        },
        TEST_TIMEOUT_MS,
      );

      it(
        'analysis that tries to write, edit, run commands or make a worktree changes nothing',
        async () => {
          const { result, repo, activities, requests } = await call(contract.name, 'analyze', (repo) => [
            ...contract.writeAttempts(repo),
            { type: 'text', text: PLAN_TEXT },
          ]);
          expect(result.classification, explain(result)).toBe('ok');
          expect(requests.length).toBe(contract.writeAttempts(repo).length + 1);
          expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
          expect(git(repo, 'branch', '--format=%(refname:short)')).toBe('main');
          expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
          expect(activities.filter((a) => a.kind === 'tool' && a.denied).length).toBeGreaterThan(0);
        },
        TEST_TIMEOUT_MS,
      );

      it(
        "the fix edits the file through the CLI's own tool",
        async () => {
          const { result, repo, activities } = await call(contract.name, 'fix', (repo) => [
            {
              type: 'edit',
              file: join(repo, 'src/math.js'),
              old: 'return a - b;',
              new: 'return a + b;',
              text: 'Fixed add().',
            },
          ]);
          expect(result.classification, explain(result)).toBe('ok');
          expect(readFileSync(join(repo, 'src/math.js'), 'utf8')).toContain('return a + b;');
          expect(result.finalText).toContain('Fixed add().');
          expect(activities.some((a) => a.kind === 'tool' && a.action === 'edit' && !a.denied)).toBe(true);
        },
        TEST_TIMEOUT_MS,
      );

      // codex, qwen and opencode print no reset time for a 429 (their output has none to read): skipped for them.
      it.skipIf(contract.rateLimitWithReset === null)(
        'a 429 that says when to come back is rate_limited with that reset time',
        async () => {
          const before = Date.now();
          const { result, ms } = await call(contract.name, 'analyze', () => [contract.rateLimitWithReset!(10)]);
          recordHandOver(contract.name, 'a 429 that says when to come back', ms);
          expect(result.classification, explain(result)).toBe('rate_limited');
          expect(ms).toBeLessThan(HAND_OVER_MS);
          expect(result.retryAt).toBeGreaterThan(before);
        },
        TEST_TIMEOUT_MS,
      );

      it.each(FAILURES.map((f) => ({ ...f, ...contract.expected?.[f.name] })))(
        '$name is $classification and hands over within 60 s',
        async (failure) => {
          const { result, ms } = await call(contract.name, 'analyze', () => failure.steps);
          recordHandOver(contract.name, failure.name, ms);
          expect(result.classification, explain(result)).toBe(failure.classification);
          expect(result.detail, explain(result)).toMatch(failure.detail);
          expect(ms).toBeLessThan(HAND_OVER_MS);
        },
        TEST_TIMEOUT_MS,
      );

      contract.more?.();
    });
}
