// agent_overhead_s: fixcycle's own time around one real claude call that answers at once: runAgent (dist) minus
// the same argv, env and stdin run directly, in pairs of alternating order; the median of the pairs' differences. Goal <= 0.2 s. Omitted, saying why,
// when the real claude is not installed (npm run real-clis). Measured for the pinned claude and, as
// agent_overhead_latest_s, for the newest one (npm run real-clis -- --latest).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeBuggyRepo, measureEachRealCliSet, median } from './real-cli.mjs';

const ROUNDS = 9;
const PROMPT = 'The test "adds two numbers" fails: add(2, 3) returns -1. Answer with a JSON fix plan.';
const PLAN =
  '```json\n{"root_causes":["add() subtracts"],"modification_points":["src/math.js:add:2"],"affected_tests":[],"confidence_score":0.9,"approach":"return a + b"}\n```';

/** Runs argv with the prompt on stdin; resolves with the seconds it took and its exit code. */
function runDirect(argv, options) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ seconds: Number(process.hrtime.bigint() - start) / 1e9, code }));
    child.stdin.end(options.input);
  });
}

export default () => measureEachRealCliSet(measure);

async function measure(kit, name) {
  const found = kit.findRealCli('claude');
  if ('missing' in found) {
    process.stdout.write(`  ${name('agent_overhead_s')} omitted: ${found.missing}\n`);
    return {};
  }
  process.stdout.write(`  ${name('agent_overhead_s')}: claude ${found.version}\n`);
  const dist = (path) => new URL(`../dist/engine/agents/${path}`, import.meta.url).href;
  await import(dist('adapters/index.js'));
  const { resolveAgents } = await import(dist('resolve.js'));
  const { runAgent } = await import(dist('run-agent.js'));
  const repo = makeBuggyRepo();
  const standIn = await kit.startStandIn([{ type: 'text', text: PLAN }]);
  try {
    const gateway = { ...kit.gatewayEnv('claude', standIn, join(kit.dir, `home-${found.version}`)), PWD: repo };
    const [agent] = resolveAgents({ agentNames: ['claude'] }, {});
    // The same process runAgent starts: the adapter's argv, environment and private settings files.
    const privateDir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-private-'));
    const command = agent.adapter.buildCommand(agent.spec, 'analyze', { privateDir, userEnv: process.env });
    for (const [rel, content] of Object.entries(command.files ?? {})) {
      mkdirSync(dirname(join(privateDir, rel)), { recursive: true });
      writeFileSync(join(privateDir, rel), content);
    }
    // As runAgent merges them: the request's variables, then the adapter's, then PWD.
    const directEnv = { ...process.env, ...gateway, ...command.env, PWD: repo };
    const viaFixcycle = [];
    const measuredByRunCommand = [];
    const direct = [];
    const viaRunAgent = async () => {
      const start = process.hrtime.bigint();
      const call = await runAgent(agent, {
        role: 'analyze',
        prompt: PROMPT,
        cwd: repo,
        env: gateway,
        timeoutMs: 60_000,
        privateDir,
      });
      if (call.classification !== 'ok')
        throw new Error(`claude through runAgent: ${call.classification} ${call.detail ?? ''}`);
      viaFixcycle.push(Number(process.hrtime.bigint() - start) / 1e9);
      measuredByRunCommand.push(call.durationMs / 1000);
    };
    const bare = async () => {
      const run = await runDirect(command.argv, { cwd: repo, env: directEnv, input: PROMPT });
      if (run.code !== 0) throw new Error(`claude run directly exited ${run.code}`);
      direct.push(run.seconds);
    };
    // Pairs in alternating order, so a machine that gets busier or quieter during the run favours neither side.
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        await viaRunAgent();
        await bare();
      } else {
        await bare();
        await viaRunAgent();
      }
    }
    rmSync(privateDir, { recursive: true, force: true });
    // agent_call_process_s: the process as runCommand timed it, so the overhead splits into around and inside it.
    return {
      [name('agent_overhead_s')]: median(viaFixcycle.map((seconds, i) => seconds - direct[i])),
      [name('agent_call_fixcycle_s')]: median(viaFixcycle),
      [name('agent_call_process_s')]: median(measuredByRunCommand),
      [name('agent_call_direct_s')]: median(direct),
    };
  } finally {
    await standIn.close();
    rmSync(repo, { recursive: true, force: true });
  }
}
