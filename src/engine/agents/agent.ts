import type { AgentClassification } from './classification.js';

export type AgentRole = 'analyze' | 'fix';

/** An agent as configured: a name and a command line (never run through a shell). */
export interface AgentSpec {
  /** The name used in `chain`, events and fix-history.json. */
  name: string;
  /** Built-in adapter (`claude`, `gemini`, `codex`, `qwen`, `opencode`, `aider`, `manual`) or `command` for a plain command. */
  adapter: string;
  /** For `command`: the argument list. For built-ins: extra arguments appended to the adapter's own. */
  command: string[];
  /** Roles this agent may take; default both. */
  roles?: AgentRole[];
  /** Model name passed to a built-in adapter. */
  model?: string;
  /** Kill the agent (and its process tree) after this long; default from --agent-timeout. */
  timeoutMs?: number;
}

/** One call of an agent in one role. */
export interface AgentRequest {
  role: AgentRole;
  prompt: string;
  cwd: string;
  /** FIXCYCLE_* variables of the agent command protocol. */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The agent's output as it comes, whole lines. */
  onLines?: (lines: string[]) => void;
  /** What the agent is doing as it happens, read from the CLI's streamed events. */
  onActivity?: (activity: AgentActivity) => void;
  /**
   * A folder private to fixcycle (inside the session folder) where an adapter may write the settings files
   * its CLI is pointed at; never the user's home or repository. Default: a fresh temporary folder.
   */
  privateDir?: string;
}

/** One thing an agent did, as its CLI streamed it: shown live in the output pane and headless. */
export type AgentActivity =
  | { kind: 'text'; text: string }
  | {
      kind: 'tool';
      tool: string;
      action: 'read' | 'edit' | 'write' | 'run' | 'search' | 'other';
      target?: string;
      denied?: boolean;
    }
  | { kind: 'retry'; detail: string; waitMs?: number }
  | { kind: 'usage'; tokens?: number; costUsd?: number }
  | { kind: 'error'; detail: string };

/** What an adapter needs to know to build a command line. */
export interface CommandContext {
  /** See AgentRequest.privateDir; always set here. */
  privateDir: string;
  /** The environment fixcycle runs in: the user's own settings win over the adapter's defaults. */
  userEnv: NodeJS.ProcessEnv;
}

/** The process to start for one call. */
export interface AgentCommand {
  argv: string[];
  /** The prompt goes on standard input. */
  stdin: boolean;
  /** The prompt goes as the last argument (aider's --message). */
  promptArg?: boolean;
  /** Variables set for the CLI (on top of the protocol's FIXCYCLE_* ones). */
  env?: Record<string, string>;
  /** Files written before the run, by path relative to `privateDir` (settings the CLI is pointed at). */
  files?: Record<string, string>;
  /**
   * Kill the call when the model has made no progress for this long (see AgentAdapter.progress): whatever the
   * CLI prints about its own retries, connections or timeouts does not count. Classified from what it printed
   * (unreachable, rate limit, auth), else `timeout` with a detail saying it stalled. Absent: no watchdog.
   */
  stallMs?: number;
  /** The limit instead of stallMs while a tool the model called runs (a test command may take minutes); default 300 s. */
  toolStallMs?: number;
  /**
   * Stop the call once the CLI has reported more retries than this (activities of kind `retry`): for CLIs whose
   * own retry count cannot be capped, so a rate-limited or unreachable API hands over within a minute.
   */
  maxRetries?: number;
  /**
   * A stderr line that marks the start of a model request (opencode's `message=stream` log line). A second one with
   * no stdout event since the first means the first got no answer and the CLI retried it in silence: it counts as a
   * retry towards maxRetries.
   */
  attemptLine?: RegExp;
}

/** A line that shows the model at work: tool calls it starts (running them may take long) and ends. */
export interface Progress {
  toolsStarted: number;
  toolsEnded: number;
}

/** How an agent call went, as recorded in the session and shown in the TUI. */
export interface AgentCall {
  agent: string;
  role: AgentRole;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  classification: AgentClassification;
  /** One line saying what went wrong (or what the agent said it did). */
  detail?: string;
  /** The agent's final message (for analyze: where the plan JSON is). */
  finalText: string;
  stdout: string;
  stderr: string;
  tokens?: number;
  costUsd?: number;
  /** When a rate-limited agent said it may be used again (epoch ms). */
  retryAt?: number;
}

/** Turns an AgentSpec and a request into a process and its output into an AgentCall. */
export interface AgentAdapter {
  name: string;
  /** Roles the adapter can take (aider only fixes); an agent without `roles` of its own gets these. Default both. */
  roles?: AgentRole[];
  /**
   * Runs the call in-process instead of spawning `buildCommand`'s command: for agents without a CLI
   * (the manual agent, where the user edits the files). Absent for every CLI adapter.
   */
  run?(spec: AgentSpec, request: AgentRequest): Promise<Omit<AgentCall, 'agent' | 'role'>>;
  /** The process for this role: arguments, environment, settings files; `stdin` says whether the prompt goes on standard input. */
  buildCommand(spec: AgentSpec, role: AgentRole, context?: CommandContext): AgentCommand;
  /**
   * Reads one line the CLI printed while it runs into what the agent is doing (its streamed events).
   * Pure and per line; absent for CLIs without a streaming format.
   */
  activity?(line: string, stream: 'stdout' | 'stderr'): AgentActivity[];
  /**
   * Whether one line the CLI printed is progress of the model (a model event, a token, a tool call or its
   * result), and how many tool calls it starts and ends; null when it is not (the CLI's own retry, connection and
   * housekeeping lines, recognised or not). Absent: read from `activity` (text, usage and tool activities).
   */
  progress?(line: string, stream: 'stdout' | 'stderr'): Progress | null;
  /** Reads the finished process: classification, final message, tokens and cost when the CLI reports them. */
  interpret(raw: {
    exitCode: number | null;
    timedOut: boolean;
    stdout: string;
    stderr: string;
  }): Pick<AgentCall, 'classification' | 'detail' | 'finalText' | 'tokens' | 'costUsd' | 'retryAt'>;
}
