import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The AI CLIs fixcycle drives, in the order of the default chain: the design's gemini, qwen, codex, then claude. */
export const DEFAULT_CHAIN_ORDER = ['gemini', 'qwen', 'codex', 'claude'] as const;

/** Every built-in CLI adapter's executable, for `fixcycle doctor`. */
export const KNOWN_CLIS = [...DEFAULT_CHAIN_ORDER, 'opencode', 'aider'] as const;

/** The full path of `bin` on `PATH`, or null. */
export function findOnPath(bin: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, bin);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** The default fallback chain: the CLIs of DEFAULT_CHAIN_ORDER found on PATH, in that order. */
export function defaultChain(env: NodeJS.ProcessEnv = process.env): string[] {
  return DEFAULT_CHAIN_ORDER.filter((bin) => findOnPath(bin, env) !== null);
}

/** The one line fixcycle prints when no agent is configured and no AI CLI is installed. */
export const NO_AGENT_FOUND =
  `no AI CLI found on PATH (looked for ${KNOWN_CLIS.join(', ')}) and no --agent-cmd given: install and log in to one, ` +
  'pass --agent-cmd "<command>", or use --agent manual to fix the code yourself while fixcycle re-runs the tests on save';
