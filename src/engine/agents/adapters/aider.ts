import { join } from 'node:path';
import type { AgentActivity, AgentCommand, AgentRole, AgentSpec, CommandContext } from '../agent.js';
import type { CliReading } from '../classify.js';
import { defineCliAdapter, modelArgs, type CliAdapter } from './cli-adapter.js';

/** Lines by which aider reports a failed model call (it prints them and may still exit 0). */
const ERROR_LINE =
  /(litellm\.\w*(Error|Exception)\b|\w+(RateLimit|Authentication|NotFound|ServiceUnavailable|APIConnection)Error\b|The API provider (has rate limited|is not able to authenticate)|API provider's servers are down|^Error: )/m;
/** `Applied edit to src/math.js`: the one sign that a file changed. */
const APPLIED = /^Applied edit to (.+)$/;
/** `Retrying in 0.5 seconds...` */
const RETRYING = /^Retrying in (\d+(?:\.\d+)?) seconds?/;
/** `Tokens: 4.2k sent, 310 received. Cost: $0.02 message, $0.02 session.` */
const USAGE = /^Tokens: ([\d.]+)(k?) sent, ([\d.]+)(k?) received\.(?: Cost: \$([\d.]+) message)?/;

function count(value: string, k: string): number {
  return Math.round(Number(value) * (k ? 1000 : 1));
}

/**
 * aider has no machine-readable output and exits 0 with `--message` even when every model call failed: its
 * text decides. Error lines count only when no edit was applied after them (a retry that recovered is fine).
 */
export function readAiderText(stdout: string, stderr: string): CliReading {
  const lines = `${stdout}\n${stderr}`.split('\n').map((l) => l.trim());
  const errors = lines.filter((line) => ERROR_LINE.test(line));
  const applied = lines.some((line) => APPLIED.test(line));
  let tokens: number | undefined;
  let costUsd: number | undefined;
  for (const line of lines) {
    const usage = USAGE.exec(line);
    if (!usage) continue;
    tokens = (tokens ?? 0) + count(usage[1]!, usage[2]!) + count(usage[3]!, usage[4]!);
    if (usage[5]) costUsd = (costUsd ?? 0) + Number(usage[5]);
  }
  return {
    structured: true,
    finalText: stdout,
    ...(errors.length && !applied ? { error: errors.join('\n') } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/** One line of aider's plain output as what it is doing: applied edits, retries, model errors. */
export function aiderActivity(line: string): AgentActivity[] {
  const text = line.trim();
  const applied = APPLIED.exec(text);
  if (applied) return [{ kind: 'tool', tool: 'edit', action: 'edit', target: applied[1]! }];
  const retry = RETRYING.exec(text);
  if (retry) return [{ kind: 'retry', detail: 'model call failed', waitMs: Math.round(Number(retry[1]) * 1000) }];
  if (ERROR_LINE.test(text)) return [{ kind: 'error', detail: text.slice(0, 200) }];
  return [];
}

const base = defineCliAdapter({
  name: 'aider',
  bin: 'aider',
  roles: ['fix'],
  promptArg: true,
  args(_role, model, extra) {
    return [
      '--yes-always',
      '--no-auto-commits',
      '--no-gitignore',
      '--no-pretty',
      '--no-stream',
      '--no-check-update',
      // --yes-always would otherwise open release notes, scrape URLs and opt in to analytics.
      '--no-show-release-notes',
      '--analytics-disable',
      '--no-detect-urls',
      // The repository map's cache is a `.aider.tags.cache.v4/` folder in the repository.
      '--map-tokens',
      '0',
      ...modelArgs('--model', model),
      ...extra,
      '--message',
    ];
  },
  read: readAiderText,
});

/**
 * aider (fix role only): the prompt as `--message`, every question answered yes, no commits of its own
 * (fixcycle commits exactly the files the fix changed), no `.aider*` line added to .gitignore, and its history
 * files in fixcycle's private folder instead of the repository.
 */
export const aiderAdapter: CliAdapter = {
  ...base,
  buildCommand(spec: AgentSpec, role: AgentRole, context?: CommandContext): AgentCommand {
    const { argv } = base.buildCommand(spec, role, context);
    const dir = context?.privateDir;
    const history = dir
      ? [
          '--chat-history-file',
          join(dir, 'aider', 'chat.history.md'),
          '--input-history-file',
          join(dir, 'aider', 'input.history'),
        ]
      : [];
    const userEnv = context?.userEnv ?? process.env;
    return {
      argv: [argv[0]!, ...history, ...argv.slice(1)],
      stdin: false,
      promptArg: true,
      // litellm fetches its model cost map from GitHub at every start unless told to use its own copy.
      env:
        userEnv.LITELLM_LOCAL_MODEL_COST_MAP === undefined
          ? { LITELLM_LOCAL_MODEL_COST_MAP: 'True' }
          : ({} as Record<string, string>),
      ...(dir ? { files: { 'aider/chat.history.md': '' } } : {}),
      // Its own loop retries 8 times over about a minute; the third retry means the API is not coming back soon.
      maxRetries: 2,
    };
  },
  activity: aiderActivity,
};
