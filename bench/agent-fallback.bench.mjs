// agent_fallback_s: from the first 429 answer of claude's API (no retry-after) to the start of the next agent
// in fixcycle's chain, with the real claude CLI run by fixcycle itself (dist/cli.js, headless). Target <= 60 s,
// goal <= 10 s. Omitted, saying why, when the real claude is not installed (npm run real-clis). Measured for the
// pinned claude and, as agent_fallback_latest_s, for the newest one (npm run real-clis -- --latest).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeBuggyRepo, measureEachRealCliSet } from './real-cli.mjs';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
// Past this the run is stopped and the figure is what it is: longer than any bound the issue allows.
const LIMIT_MS = 300_000;

// The next agent of the chain: notes when it starts, then answers with a plan.
const NEXT_AGENT = `import { appendFileSync } from 'node:fs';
appendFileSync(process.argv[2], Date.now() + '\\n');
console.log(JSON.stringify({ root_causes: ['add() subtracts'], modification_points: ['src/math.js:add:2'], affected_tests: [], confidence_score: 0.9, approach: 'return a + b' }));
`;

export default () => measureEachRealCliSet(measure);

async function measure(kit, name) {
  const claude = kit.findRealCli('claude');
  if ('missing' in claude) {
    process.stdout.write(`  ${name('agent_fallback_s')} omitted: ${claude.missing}\n`);
    return {};
  }
  process.stdout.write(`  ${name('agent_fallback_s')}: claude ${claude.version}\n`);
  const repo = makeBuggyRepo();
  const home = join(kit.dir, `home-${claude.version}`);
  const starts = join(kit.dir, `next-agent-starts-${claude.version}.txt`);
  writeFileSync(join(kit.dir, 'next-agent.mjs'), NEXT_AGENT);
  rmSync(starts, { force: true });
  writeFileSync(
    join(repo, 'fixcycle.config.json'),
    JSON.stringify({
      chain: ['claude', 'next'],
      agents: {
        claude: { adapter: 'claude' },
        next: { command: [process.execPath, join(kit.dir, 'next-agent.mjs'), starts] },
      },
    }),
  );
  execFileSync('git', ['add', 'fixcycle.config.json'], { cwd: repo });
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@fixcycle.invalid', 'commit', '-qm', 'config'], {
    cwd: repo,
  });
  const standIn = await kit.startStandIn([{ type: 'error', status: 429 }]);
  try {
    const env = { ...kit.gatewayEnv('claude', standIn, home), PWD: repo, FORCE_COLOR: '0' };
    const child = spawn(
      process.execPath,
      [CLI, 'run', '--headless', '--test-cmd', 'node --test', '--max-iterations', '1'],
      { cwd: repo, env, stdio: 'ignore' },
    );
    const ended = new Promise((resolve) => child.on('close', resolve));
    const deadline = Date.now() + LIMIT_MS;
    while (
      !(existsSync(starts) && readFileSync(starts, 'utf8').trim()) &&
      Date.now() < deadline &&
      child.exitCode === null
    )
      await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGTERM');
    await ended;
    const first429 = standIn.requests.find((r) => r.method === 'POST')?.at;
    const next = existsSync(starts) ? Number(readFileSync(starts, 'utf8').trim().split('\n')[0]) : NaN;
    if (first429 === undefined || !Number.isFinite(next)) {
      process.stdout.write(
        `  ${name('agent_fallback_s')} omitted: ${first429 === undefined ? 'claude never called its API' : `the next agent never started within ${LIMIT_MS / 1000} s`}\n`,
      );
      return {};
    }
    const claudeRequests = standIn.requests.filter((r) => r.method === 'POST').length;
    return {
      [name('agent_fallback_s')]: (next - first429) / 1000,
      [name('agent_fallback_claude_requests')]: claudeRequests,
    };
  } finally {
    await standIn.close();
    rmSync(repo, { recursive: true, force: true });
  }
}
