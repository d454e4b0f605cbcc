import { symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentCall, AgentRole } from '../../src/engine/agents/agent.js';
import { runAgent } from '../../src/engine/agents/run-agent.js';
import { builtIn, cleanup, makeRepo, tempDir } from '../agents/helpers.js';
import { HAND_OVER_MS, TEST_TIMEOUT_MS } from './adapter-contract.js';

/**
 * The hand-over guarantee for a release whose log format nobody knows yet: a stand-in CLI (named like each real
 * one, so fixcycle drives it through that CLI's adapter) whose API is down retries forever and reports each
 * attempt every 20 s in lines none of today's patterns match. Its chatter is no progress of the model, so the
 * call is ended within the minute in every role (gen and team call the adapters as `analyze` or `fix`), and
 * classified from what the chatter says.
 */
const STAND_IN = fileURLToPath(new URL('../fixtures/retrying-cli/cli.mjs', import.meta.url));
const CLIS = ['claude', 'gemini', 'codex', 'qwen', 'opencode'] as const;
const ROLES: AgentRole[] = ['analyze', 'fix'];

let bin: string;
const dirs: string[] = [];
beforeAll(() => {
  bin = tempDir('fixcycle-retrying-cli-');
  for (const cli of CLIS) symlinkSync(STAND_IN, join(bin, cli));
});
afterAll(() => cleanup(bin, ...dirs));

async function call(cli: string, role: AgentRole, says: string): Promise<{ result: AgentCall; ms: number }> {
  const repo = makeRepo();
  const home = tempDir('fixcycle-retrying-home-');
  dirs.push(repo, home);
  const started = Date.now();
  const result = await runAgent(builtIn(cli), {
    role,
    prompt: 'The test "adds two numbers" fails. Find the root cause.',
    cwd: repo,
    // No codex config of the user's, no rg of the machine's: the stand-in needs neither.
    env: {
      PATH: `${bin}${delimiter}${join(process.execPath, '..')}`,
      HOME: home,
      CODEX_HOME: home,
      RETRYING_CLI_SAYS: says,
    },
    timeoutMs: 150_000,
  });
  return { result, ms: Date.now() - started };
}

// The calls mostly wait: all at once, so the file takes one limit, not four.
vi.setConfig({ maxConcurrency: 20 });

const CASES = CLIS.flatMap((cli) => ROLES.map((role) => ({ cli, role })));

describe.concurrent('a CLI retrying with log lines no adapter knows, every 20 s, is handed over within 60 s', () => {
  it.each(CASES)(
    '$cli as $role: a refused connection is "API unreachable"',
    async ({ cli, role }) => {
      const { result, ms } = await call(cli, role, 'refused');
      expect(result.classification, result.detail).toBe('failed');
      expect(result.detail).toMatch(
        /^API unreachable: .*ECONNREFUSED.*\(no progress of the model for \d+ s; killed\)$/,
      );
      expect(ms).toBeLessThan(HAND_OVER_MS);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(CLIS.map((cli) => ({ cli })))(
    '$cli: a 429 it keeps retrying is rate_limited',
    async ({ cli }) => {
      const { result, ms } = await call(cli, 'analyze', '429');
      expect(result.classification, result.detail).toBe('rate_limited');
      expect(ms).toBeLessThan(HAND_OVER_MS);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(CLIS.map((cli) => ({ cli })))(
    '$cli: attempts that give no reason are a stall',
    async ({ cli }) => {
      const { result, ms } = await call(cli, 'fix', 'nothing');
      expect(result.classification, result.detail).toBe('timeout');
      expect(result.detail).toMatch(/^stalled: no progress of the model for \d+ s/);
      expect(ms).toBeLessThan(HAND_OVER_MS);
    },
    TEST_TIMEOUT_MS,
  );
});
