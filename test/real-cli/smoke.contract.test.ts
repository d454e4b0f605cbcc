import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import '../../src/engine/agents/adapters/index.js';
import type { AgentRole } from '../../src/engine/agents/agent.js';
import { resolveAgents } from '../../src/engine/agents/resolve.js';
import { runAgent } from '../../src/engine/agents/run-agent.js';
import { cleanup, makeRepo, tempDir } from '../agents/helpers.js';
import { gatewayEnv, missingRealClis, type RealCliName } from './harness.js';
import { startStandIn, type StandIn, type StandInStep } from './stand-in/server.js';

/**
 * Each real CLI, run through fixcycle's own adapter against the stand-in: it answers a text step in the
 * analysis and lands an `edit` step through its own tools in the fix. Proves the stand-in and the harness.
 * (Before the adapter fixes, gemini needed GEMINI_CLI_TRUST_WORKSPACE (exit 55) and opencode needed PWD set to the
 * repository, which fixcycle now supplies: --skip-trust, and runAgent's PWD.)
 */
const CLIS: RealCliName[] = ['claude', 'gemini', 'qwen', 'codex', 'opencode'];

const dirs: string[] = [];
let standIn: StandIn | undefined;

afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});
afterAll(() => cleanup(...dirs.splice(0)));

async function call(name: RealCliName, role: AgentRole, steps: (repo: string) => StandInStep[]) {
  const repo = makeRepo();
  const home = tempDir('fixcycle-real-home-');
  const privateDir = tempDir('fixcycle-private-');
  dirs.push(repo, home, privateDir);
  standIn = await startStandIn(steps(repo));
  const [agent] = resolveAgents({ agentNames: [name] }, {});
  const env = gatewayEnv(name, standIn, home);
  const result = await runAgent(agent!, {
    role,
    prompt: 'The test "adds two numbers" fails. Answer briefly.',
    cwd: repo,
    env,
    timeoutMs: 100_000,
    privateDir,
  });
  return { result, repo, requests: standIn.requests };
}

for (const name of CLIS) {
  const missing = missingRealClis(name);
  describe.skipIf(missing !== undefined)(`real ${name} against the stand-in${missing ? ` (${missing})` : ''}`, () => {
    // Generous: opencode alone needs ~5 s idle and 40 s on a loaded 2-core machine.
    it('answers a text step in the analysis and exits 0', { timeout: 120_000 }, async () => {
      const { result, requests } = await call(name, 'analyze', () => [
        { type: 'text', text: 'add() subtracts instead of adding.' },
      ]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.finalText).toContain('add() subtracts instead of adding.');
      expect(requests.filter((r) => !r.auxiliary && r.method === 'POST')).toHaveLength(1);
    });

    it("lands an edit step through the CLI's own tools in the fix", { timeout: 120_000 }, async () => {
      const { result, repo, requests } = await call(name, 'fix', (repo) => [
        {
          type: 'edit',
          file: join(repo, 'src/math.js'),
          old: 'return a - b;',
          new: 'return a + b;',
          text: 'Fixed add().',
        },
      ]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readFileSync(join(repo, 'src/math.js'), 'utf8'), result.stderr + result.stdout.slice(-1500)).toContain(
        '  return a + b;',
      );
      expect(result.finalText).toContain('Fixed add().');
      expect(requests.filter((r) => !r.auxiliary && r.method === 'POST').length).toBeGreaterThanOrEqual(2);
    });
  });
}
