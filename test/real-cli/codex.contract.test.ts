import { describe, expect, it } from 'vitest';
import '../../src/engine/agents/adapters/index.js';
import { resolveAgents } from '../../src/engine/agents/resolve.js';
import { runAgent } from '../../src/engine/agents/run-agent.js';
import { cleanup, makeRepo, tempDir } from '../agents/helpers.js';
import { describeContract, HAND_OVER_MS } from './adapter-contract.js';
import { gatewayEnv, missingRealClis } from './harness.js';
import { startStandIn, type StandInStep } from './stand-in/server.js';

const PATCH = '*** Begin Patch\n*** Update File: src/math.js\n@@\n-  return a - b;\n+  return a + b;\n*** End Patch\n';

/**
 * The real codex (0.169.0 when written) through fixcycle's adapter against the stand-in, configured the way a
 * user points it at a gateway: a `[model_providers]` entry in their CODEX_HOME (it ignores OPENAI_BASE_URL).
 * Analysis runs in the read-only sandbox, where apply_patch is rejected and `sed -i` meets a read-only file
 * system. fixcycle adds `-c` caps (1 stream retry, 2 HTTP retries) and turns off unbounded connection retries.
 */
describeContract({
  name: 'codex',
  writeAttempts: () => [
    { type: 'patch', patch: PATCH },
    { type: 'tool', name: 'exec_command', input: { cmd: "sed -i 's/a - b/a + b/' src/math.js" } },
    { type: 'tool', name: 'exec_command', input: { cmd: 'echo changed > changed.txt' } },
  ],
  rateLimitWithReset: null,
  knownNoise: /could not create PATH aliases/,
  expected: {
    'a server that never answers': {
      classification: 'timeout',
      detail: /^stalled: no progress of the model for 40 s/,
      why: 'codex has no timeout before response headers; the progress watchdog hands over',
    },
  },
});

const missing = missingRealClis('codex');

/** One analysis against a stand-in scripted with `steps` (or against a closed port). */
async function analyze(steps: StandInStep[] | 'refused') {
  const repo = makeRepo();
  const home = tempDir('fixcycle-real-home-');
  const standIn = await startStandIn(steps === 'refused' ? [] : steps);
  const env = gatewayEnv('codex', standIn, home);
  if (steps === 'refused') await standIn.close();
  const [agent] = resolveAgents({ agentNames: ['codex'] }, {});
  const started = Date.now();
  try {
    const result = await runAgent(agent!, {
      role: 'analyze',
      prompt: 'Find the bug.',
      cwd: repo,
      env,
      timeoutMs: 150_000,
    });
    return { result, ms: Date.now() - started };
  } finally {
    if (steps !== 'refused') await standIn.close();
    cleanup(repo, home);
  }
}

describe.skipIf(missing !== undefined).concurrent(`the real codex's waits${missing ? ` (${missing})` : ''}`, () => {
  it('a 429 with retry-after 30 is rate_limited and hands over within 60 s', async () => {
    const { result, ms } = await analyze([{ type: 'error', status: 429, headers: { 'retry-after': '30' } }]);
    expect(result.classification, result.stdout).toBe('rate_limited');
    expect(ms).toBeLessThan(HAND_OVER_MS);
  });

  it('connection refused fails as unreachable within 60 s instead of retrying for ever', async () => {
    const { result, ms } = await analyze('refused');
    expect(result.classification, result.stdout).toBe('failed');
    expect(result.detail).toMatch(/^API unreachable: Connection failed/);
    expect(ms).toBeLessThan(HAND_OVER_MS);
  });
});
