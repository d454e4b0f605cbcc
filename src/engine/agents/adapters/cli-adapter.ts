import type {
  AgentActivity,
  AgentAdapter,
  AgentCommand,
  AgentRole,
  AgentSpec,
  CommandContext,
  Progress,
} from '../agent.js';
import { interpretCliRun, type CliReading } from '../classify.js';
import { CHECKED_VERSIONS } from './checked-versions.js';

/** What one AI CLI needs to be driven through the agent command protocol. */
export interface CliDefinition {
  /** Adapter name, as used in `--agent` and `chain`. */
  name: string;
  /** The executable looked up on PATH. */
  bin: string;
  /** Roles the CLI can take; default both. */
  roles?: AgentRole[];
  /** Arguments after the executable for this role; `model` and `extra` come from the agent's config. */
  args(role: AgentRole, model: string | undefined, extra: readonly string[]): string[];
  /** The prompt goes as the last argument instead of on stdin (aider's --message). */
  promptArg?: boolean;
  /** Reads the CLI's output format. */
  read(stdout: string, stderr: string): CliReading;
  /** Variables for the CLI (retry caps, settings paths); the user's own environment should win where it sets one. */
  env?(role: AgentRole, context: CommandContext): Record<string, string>;
  /** Settings files written into the private folder before the run, by path relative to it. */
  files?(role: AgentRole, context: CommandContext): Record<string, string>;
  /** Kill the call when the model makes no progress for this long (see AgentCommand.stallMs). */
  stallMs?(role: AgentRole): number | undefined;
  /** Reads one streamed line into what the agent is doing. */
  activity?(line: string, stream: 'stdout' | 'stderr'): AgentActivity[];
  /** Whether one line is the model at work (see AgentAdapter.progress). */
  progress?(line: string, stream: 'stdout' | 'stderr'): Progress | null;
  /** Stop the call after this many reported retries (see AgentCommand.maxRetries). */
  maxRetries?(role: AgentRole): number | undefined;
}

/** A CLI adapter built from its definition: the command line per role and the classification of its output. */
export interface CliAdapter extends AgentAdapter {
  bin: string;
  /** The releases the contract suite passed against (checked-versions.ts): `fixcycle doctor` warns outside them. */
  checkedVersions: readonly string[];
}

export function defineCliAdapter(def: CliDefinition): CliAdapter {
  return {
    name: def.name,
    bin: def.bin,
    checkedVersions: CHECKED_VERSIONS[def.name] ?? [],
    ...(def.roles ? { roles: def.roles } : {}),
    ...(def.activity ? { activity: def.activity } : {}),
    ...(def.progress ? { progress: def.progress } : {}),
    buildCommand(spec: AgentSpec, role: AgentRole, context?: CommandContext) {
      const argv = [def.bin, ...def.args(role, spec.model, spec.command)];
      const command: AgentCommand = def.promptArg ? { argv, stdin: false, promptArg: true } : { argv, stdin: true };
      const env = context && def.env?.(role, context);
      const files = context && def.files?.(role, context);
      const stallMs = def.stallMs?.(role);
      const maxRetries = def.maxRetries?.(role);
      return {
        ...command,
        ...(env ? { env } : {}),
        ...(files ? { files } : {}),
        ...(stallMs ? { stallMs } : {}),
        ...(maxRetries !== undefined ? { maxRetries } : {}),
      };
    },
    interpret(raw) {
      return interpretCliRun(def.bin, raw, def.read(raw.stdout, raw.stderr));
    },
  };
}

/** `--model <m>` when a model is configured. */
export function modelArgs(flag: string, model: string | undefined): string[] {
  return model ? [flag, model] : [];
}
