import type { FixcycleConfig } from '../engine/config.js';
import type { AgentRole } from '../engine/agents/agent.js';
import { CLI_ADAPTERS } from '../engine/agents/adapters/index.js';
import { DEFAULT_CHAIN_ORDER, findOnPath } from '../engine/agents/adapters/discover.js';
import { resolveAgents } from '../engine/agents/resolve.js';
import type { ResolvedAgent } from '../engine/agents/run-agent.js';
import { checkVersion, compareVersions, describeVerdict } from '../engine/agents/adapters/version-check.js';
import { runCommand } from '../engine/process/run-command.js';
import { nodeEnginesOf, olderThanRange } from './cli-engines.js';

/**
 * `--version` answers within a second on an idle machine, but the CLIs are large Node bundles probed all at once:
 * on a busy machine one took over 5 s. 15 s, and a second try, before it is called unknown.
 */
const VERSION_TIMEOUT_MS = 15_000;
const VERSION_TRIES = 2;

async function versionOf(path: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  let lines: string[] = [];
  let result: Awaited<ReturnType<typeof runCommand>> | undefined;
  for (let i = 0; i < VERSION_TRIES && (result === undefined || result.timedOut); i++) {
    lines = [];
    result = await runCommand([path, '--version'], {
      cwd,
      env,
      timeoutMs: VERSION_TIMEOUT_MS,
      graceMs: 500,
      onLines: (l) => lines.push(...l),
    });
  }
  const first = lines.map((l) => l.trim()).find(Boolean) ?? '';
  if (!result) return 'version unknown';
  if (result.timedOut)
    return `version unknown (--version did not answer within ${VERSION_TIMEOUT_MS / 1000} s, ${VERSION_TRIES} times)`;
  if (result.exitCode !== 0) return `version unknown (--version exited ${result.exitCode ?? 'by a signal'})`;
  return first || 'version unknown';
}

/** An argument as a shell would need it typed: bare when safe, else in single quotes. */
function shellWord(arg: string): string {
  return /^[\w./:=@,+%-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The exact command line an agent runs in one role, with where its prompt goes. */
function commandLine(agent: ResolvedAgent, role: AgentRole): string {
  if (agent.adapter.run) return 'no command: you edit the files, fixcycle re-runs the tests on save';
  const { argv, stdin, promptArg, env } = agent.adapter.buildCommand(agent.spec, role);
  const vars = Object.entries(env ?? {}).map(([name, value]) => `${name}=${shellWord(value)} `);
  return `${vars.join('')}${argv.map(shellWord).join(' ')}${promptArg ? ' <prompt>' : ''}${stdin ? ' < prompt' : ''}`;
}

function roleLines(agent: ResolvedAgent): string[] {
  const roles = agent.spec.roles ?? agent.adapter.roles ?? ['analyze', 'fix'];
  return roles.map((role) => `      ${role.padEnd(7)}: ${commandLine(agent, role)}`);
}

/**
 * The agents section of `fixcycle doctor`: which AI CLIs are on PATH and their versions, the command line
 * each role would run, and the fallback chain fixcycle would use here (or why it has none).
 */
export async function agentDoctorLines(
  cwd: string,
  config: FixcycleConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const lines = ['Agents'];
  const found = await Promise.all(
    CLI_ADAPTERS.map(async (adapter) => {
      const path = findOnPath(adapter.bin, env);
      return { adapter, path, version: path ? await versionOf(path, cwd, env) : '' };
    }),
  );
  for (const { adapter, path, version } of found) {
    if (!path) {
      lines.push(`  ✗ ${adapter.name}: not found on PATH`);
      continue;
    }
    const verdict = checkVersion(version, adapter.checkedVersions);
    const newest = describeVerdict(verdict);
    if (verdict.within === false) {
      const install = verdict.checked.length
        ? `; if it misbehaves, install ${[...verdict.checked].sort(compareVersions).at(-1)!}`
        : '';
      lines.push(`  ! ${adapter.name} ${version} (${path}): ${newest}${install}`);
    } else
      lines.push(
        `  ✓ ${adapter.name} ${version} (${path}) (${verdict.within === undefined ? `version unread; ${newest}` : newest})`,
      );
    const engines = nodeEnginesOf(path);
    if (engines && olderThanRange(process.versions.node, engines)) {
      lines.push(
        `    ! ${adapter.name} declares Node ${engines} in its package.json engines; this is Node ${process.versions.node}: upgrade Node if it misbehaves`,
      );
    }
    lines.push(...roleLines({ spec: { name: adapter.name, adapter: adapter.name, command: [] }, adapter }));
  }
  const configured = Boolean(config.chain?.length || Object.keys(config.agents ?? {}).length);
  const origin = configured
    ? 'from fixcycle.config.json'
    : `default: the CLIs found on PATH, in the order ${DEFAULT_CHAIN_ORDER.join(', ')}`;
  try {
    const chain = resolveAgents({ env }, config);
    lines.push(`  chain (${origin}): ${chain.map((a) => a.spec.name).join(' -> ')}`);
    for (const agent of chain) {
      if (CLI_ADAPTERS.some((a) => a.name === agent.spec.name && a.name === agent.adapter.name) && !configured)
        continue;
      lines.push(
        `    ${agent.spec.name} (${agent.adapter.name}${agent.spec.model ? `, model ${agent.spec.model}` : ''})`,
      );
      lines.push(...roleLines(agent));
    }
  } catch (error) {
    lines.push(`  chain: ${(error as Error).message}`);
  }
  return lines;
}
