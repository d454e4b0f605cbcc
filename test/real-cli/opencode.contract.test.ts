import { describe, expect, it, vi } from 'vitest';
import '../../src/engine/agents/adapters/index.js';
import { resolveAgents } from '../../src/engine/agents/resolve.js';
import { runAgent } from '../../src/engine/agents/run-agent.js';
import { cleanup, makeRepo, tempDir } from '../agents/helpers.js';
import { describeContract, HAND_OVER_MS } from './adapter-contract.js';
import { gatewayEnv, missingRealClis } from './harness.js';
import { startStandIn, type StandInStep } from './stand-in/server.js';

// opencode (a bun binary) takes about 4 s to start on an idle machine and ten times that on a busy one.
vi.setConfig({ testTimeout: 170_000 });

/** opencode logs the message of a failed request, not its status, and fixcycle stops it at its second attempt. */
const STATUS_UNSAID =
  'opencode retries 5 times (~70 s) with no setting to cap it; fixcycle stops it at the second failed attempt, when only the logged message ("stand-in error 5xx") is known';

/**
 * The real opencode (1.18.33 when written) through fixcycle's adapter against the stand-in, with the provider in
 * the user's own config. Analysis runs the `plan` agent with bash, edit and task denied through
 * OPENCODE_PERMISSION (its plan agent alone still runs `sed -i`).
 */
describeContract({
  name: 'opencode',
  writeAttempts: (repo) => [
    { type: 'tool', name: 'bash', input: { command: "sed -i 's/a - b/a + b/' src/math.js", description: 'fix it' } },
    {
      type: 'tool',
      name: 'edit',
      input: { filePath: `${repo}/src/math.js`, oldString: 'return a - b;', newString: 'return a + b;' },
    },
    { type: 'tool', name: 'write', input: { filePath: `${repo}/src/new.js`, content: 'export const x = 1;\n' } },
  ],
  // The retry-after is only in the error line opencode prints after its last retry, which fixcycle does not wait for.
  rateLimitWithReset: null,
  // At every start opencode installs a plugin package in the background; offline (the harness points npm at the stand-in) it warns.
  knownNoise: /background dependency install failed/,
  expected: {
    '500': { classification: 'failed', detail: /stand-in error 500/, why: STATUS_UNSAID },
  },
});

const missing = missingRealClis('opencode');

/** One call against a stand-in scripted with `steps` (or against a closed port). */
async function run(role: 'analyze' | 'fix', steps: StandInStep[] | 'refused', userEnv: Record<string, string> = {}) {
  const repo = makeRepo();
  const home = tempDir('fixcycle-real-home-');
  const standIn = await startStandIn(steps === 'refused' ? [] : steps);
  const env = { ...gatewayEnv('opencode', standIn, home), ...userEnv };
  if (steps === 'refused') await standIn.close();
  const [agent] = resolveAgents({ agentNames: ['opencode'] }, {});
  const started = Date.now();
  try {
    const result = await runAgent(agent!, { role, prompt: 'Find the bug.', cwd: repo, env, timeoutMs: 150_000 });
    const first = standIn.requests.find((r) => !r.auxiliary && r.method === 'POST')?.at;
    // From its first model request: opencode's own start (4 s idle, 30 s and more on a loaded machine) comes before.
    return {
      result,
      ms: Date.now() - started,
      fromFirstRequestMs: first === undefined ? undefined : Date.now() - first,
    };
  } finally {
    if (steps !== 'refused') await standIn.close();
    cleanup(repo, home);
  }
}

describe
  .skipIf(missing !== undefined)
  .concurrent(`the real opencode's waits and refusals${missing ? ` (${missing})` : ''}`, () => {
    it('a 429 with retry-after 30 is rate_limited and hands over within 60 s', async () => {
      const { result, fromFirstRequestMs } = await run('analyze', [
        { type: 'error', status: 429, headers: { 'retry-after': '30' } },
      ]);
      expect(result.classification, result.stderr.slice(-1500)).toBe('rate_limited');
      expect(fromFirstRequestMs).toBeLessThan(HAND_OVER_MS);
    });

    it('connection refused fails as unreachable within 60 s', async () => {
      const { result, ms } = await run('analyze', 'refused');
      expect(result.classification, result.stderr.slice(-1500)).toBe('failed');
      expect(result.detail).toMatch(/^API unreachable: /);
      expect(ms).toBeLessThan(HAND_OVER_MS);
    });

    it('a fix that writes outside the repository is refused and not taken for done', async () => {
      const { result } = await run('fix', [
        { type: 'tool', name: 'write', input: { filePath: '/etc/fixcycle-outside.js', content: 'x' } },
        { type: 'text', text: 'Done.' },
      ]);
      expect(result.classification, result.stderr.slice(-1500)).toBe('failed');
      expect(result.detail).toMatch(/permission .*external_directory/);
    });

    it("keeps the user's own permissions for the fix and denies writing tools over them in analysis", async () => {
      const { result } = await run(
        'analyze',
        [
          { type: 'tool', name: 'bash', input: { command: 'echo changed > changed.txt', description: 'x' } },
          { type: 'text', text: 'no plan' },
        ],
        { OPENCODE_PERMISSION: '{"bash":"allow","edit":"allow"}' },
      );
      expect(result.classification, result.stderr.slice(-1500)).toBe('ok');
      expect(result.stdout).toMatch(/unavailable tool 'bash'/);
    });
  });
