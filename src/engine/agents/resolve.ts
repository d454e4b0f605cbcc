import type { FixcycleConfig } from '../config.js';
import { ConfigError } from '../config.js';
import { splitCommandLine } from '../runners/command-line.js';
import type { AgentAdapter, AgentSpec } from './agent.js';
import { defaultChain, NO_AGENT_FOUND } from './adapters/discover.js';
import { commandAdapter } from './command-adapter.js';
import type { ResolvedAgent } from './run-agent.js';

/** Adapters by name; built-in AI CLIs add themselves here. */
const adapters = new Map<string, AgentAdapter>([['command', commandAdapter]]);

export function registerAdapter(adapter: AgentAdapter): void {
  adapters.set(adapter.name, adapter);
}

export function knownAdapters(): string[] {
  return [...adapters.keys()];
}

function toArgv(command: string | string[] | undefined, where: string): string[] {
  if (command === undefined) return [];
  if (Array.isArray(command)) return command;
  const split = splitCommandLine(command);
  if (!split.ok) throw new ConfigError(`${where}: ${split.error}`);
  return split.argv;
}

function resolveOne(name: string, spec: Omit<AgentSpec, 'name'>, where: string): ResolvedAgent {
  const adapter = adapters.get(spec.adapter);
  if (!adapter)
    throw new ConfigError(`${where}: unknown adapter "${spec.adapter}"; use one of ${knownAdapters().join(', ')}`);
  if (spec.adapter === 'command' && spec.command.length === 0)
    throw new ConfigError(`${where}: agent "${name}" has no command`);
  const unsupported = spec.roles?.find((role) => adapter.roles && !adapter.roles.includes(role));
  if (unsupported)
    throw new ConfigError(
      `${where}: the ${adapter.name} adapter cannot take the ${unsupported} role; give it roles ${JSON.stringify(adapter.roles)}`,
    );
  const roles = spec.roles ?? adapter.roles;
  return { spec: { name, ...spec, ...(roles ? { roles } : {}) }, adapter };
}

const INTERPRETERS = /^(node|nodejs|python3?|bash|sh|zsh|deno|bun|ruby|perl|npx|tsx)$/;

/** A readable name for a command agent: its script's or program's base name (`./my-agent.sh` -> `my-agent`). */
function commandName(argv: readonly string[]): string {
  const base = (path: string): string =>
    path
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(m?js|cjs|ts|sh|py|rb|pl)$/, '');
  const program = base(argv[0] ?? 'agent');
  const script = argv.slice(1).find((a) => !a.startsWith('-'));
  return INTERPRETERS.test(program) && script ? base(script) : program || 'agent';
}

export interface AgentChoice {
  /** --agent-cmd command lines, in fallback order. */
  agentCmds?: string[];
  /** --agent names (built-in adapters or config agents), in fallback order. */
  agentNames?: string[];
  timeoutMs?: number;
  /** Where to look for AI CLIs when nothing names an agent (the default chain); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The fallback chain: --agent-cmd, else --agent, else the config's chain (or all its agents), else the AI CLIs
 * found on PATH (gemini, qwen, codex, claude). None of these: a ConfigError that offers `--agent manual`.
 */
export function resolveAgents(choice: AgentChoice, config: FixcycleConfig): ResolvedAgent[] {
  if (choice.agentCmds?.length) {
    const argvs = choice.agentCmds.map((line) => toArgv(line, '--agent-cmd'));
    const names = argvs.map(commandName);
    return argvs.map((argv, i) => {
      const name = names.filter((n) => n === names[i]).length > 1 ? `${names[i]}-${i + 1}` : names[i]!;
      return resolveOne(name, { adapter: 'command', command: argv, timeoutMs: choice.timeoutMs }, '--agent-cmd');
    });
  }
  let names = choice.agentNames?.length ? choice.agentNames : (config.chain ?? Object.keys(config.agents ?? {}));
  if (names.length === 0) names = defaultChain(choice.env);
  if (names.length === 0) throw new ConfigError(NO_AGENT_FOUND);
  return names.map((name) => {
    const entry = config.agents?.[name];
    const where = entry ? `fixcycle.config.json: agents.${name}` : `agent "${name}"`;
    if (!entry && !adapters.has(name)) {
      throw new ConfigError(
        `${where} is neither defined under "agents" in fixcycle.config.json nor a built-in (${knownAdapters().join(', ')})`,
      );
    }
    const adapter = entry?.adapter ?? (entry?.command ? 'command' : name);
    return resolveOne(
      name,
      {
        adapter,
        command: toArgv(entry?.command, where),
        roles: entry?.roles,
        model: entry?.model,
        timeoutMs: entry?.timeoutSec ? entry.timeoutSec * 1000 : choice.timeoutMs,
      },
      where,
    );
  });
}
