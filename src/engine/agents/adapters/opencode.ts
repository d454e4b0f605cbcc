import type { AgentRole, AgentSpec, CommandContext } from '../agent.js';
import type { CliReading } from '../classify.js';
import { defineCliAdapter, modelArgs, type CliAdapter } from './cli-adapter.js';
import { opencodeActivity, opencodeProgress, streamError } from './opencode-activity.js';
import { opencodeEnv } from './opencode-env.js';
import { isObject, num, parseJsonLines, str, sum } from './parse-output.js';

/**
 * `opencode run --format json` events: `text` parts (the final message is the text after the last
 * `step_start`), `step_finish` parts with tokens and cost, and one `error` event `{error: {name, data: {message,
 * statusCode, responseHeaders}}}` when it gives up (exit 1). A run stopped before that reads as the model-request
 * errors opencode logged on stderr.
 */
export function readOpencodeEvents(stdout: string, stderr = ''): CliReading {
  const events = parseJsonLines(stdout).filter((e) => typeof e.type === 'string' && ('part' in e || 'error' in e));
  const logged = stderr
    .split('\n')
    .map(streamError)
    .filter((e): e is string => e !== undefined);
  if (events.length === 0)
    return logged.length
      ? { structured: true, finalText: '', error: logged.at(-1)! }
      : { structured: false, finalText: '' };
  let texts: string[] = [];
  let tokens: number | undefined;
  let costUsd: number | undefined;
  const errors: string[] = [];
  for (const event of events) {
    const part = isObject(event.part) ? event.part : {};
    if (event.type === 'step_start') texts = [];
    else if (event.type === 'text') texts.push(str(part.text) ?? '');
    else if (event.type === 'step_finish') {
      const t = isObject(part.tokens) ? part.tokens : {};
      tokens = sum(tokens, num(t.input), num(t.output), num(t.reasoning));
      costUsd = sum(costUsd, num(part.cost));
    } else if (event.type === 'error') {
      const error = isObject(event.error) ? event.error : {};
      const data = isObject(error.data) ? error.data : {};
      const status = num(data.statusCode);
      errors.push(
        [
          str(error.name),
          str(data.message),
          status !== undefined ? `(status ${status})` : undefined,
          isObject(data.responseHeaders) ? JSON.stringify(data.responseHeaders) : undefined,
        ]
          .filter(Boolean)
          .join(': '),
      );
    }
  }
  if (!errors.length && logged.length && !texts.length) errors.push(logged.at(-1)!);
  return {
    structured: true,
    finalText: texts.join('\n'),
    ...(errors.length ? { error: errors.join('\n') } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/** `! agent "plann" not found. Falling back to default agent`: opencode then runs `build`, which can write. */
const AGENT_FALLBACK = /agent "([^"]*)" not found\. Falling back to default agent/;
/** `! permission requested: external_directory (*); auto-rejecting`: the run then ends, exit 0, with no answer. */
const AUTO_REJECTED = /permission requested: (.+?); auto-rejecting/;

/** `timestamp=... level=INFO ...`: opencode's log, apart from its errors. */
const LOG_LINE = /^timestamp=\S+ level=(DEBUG|INFO|WARN)\b/;

/** opencode's words for a refused connection or a socket closed before the answer. */
const UNREACHABLE = /Cannot connect to API|Unable to connect|socket connection was closed/i;

/** opencode logs this as each main model request starts (the session title's request is `small=true`). */
const MAIN_REQUEST = /^timestamp=\S+ level=INFO .*\bmessage=stream\b.*\bsmall=false\b/;

/** No progress of the model for this long (its log lines, which go on while a request hangs, are none) is a stall. */
const STALL_MS = 40_000;

const base = defineCliAdapter({
  name: 'opencode',
  bin: 'opencode',
  args(role, model, extra) {
    // Its log on stderr is the only sign of life while it starts and retries in silence: one `stream` line per
    // model request and one `stream error` line per failed one, so retries show and can be cut short.
    return [
      'run',
      '--format',
      'json',
      '--agent',
      role === 'analyze' ? 'plan' : 'build',
      '--print-logs',
      '--log-level',
      'INFO',
      ...modelArgs('--model', model),
      ...extra,
    ];
  },
  read: readOpencodeEvents,
});

/**
 * OpenCode: `opencode run --format json`, the prompt on stdin (read to its end). The `plan` agent analyses with
 * bash, edit and sub-agents denied through OPENCODE_PERMISSION (merged over the user's own), the `build` agent
 * fixes. The user's opencode config (provider, model, gateway) is used as it is.
 */
export const opencodeAdapter: CliAdapter = {
  ...base,
  buildCommand(spec: AgentSpec, role: AgentRole, context?: CommandContext) {
    const { argv } = base.buildCommand(spec, role, context);
    return {
      argv,
      stdin: true,
      env: opencodeEnv(role, context?.userEnv ?? process.env),
      stallMs: STALL_MS,
      maxRetries: 1,
      attemptLine: MAIN_REQUEST,
    };
  },
  activity: opencodeActivity,
  progress: opencodeProgress,
  interpret(raw) {
    // Its informational log lines (paths, "auth" plugins...) are no evidence of what went wrong.
    const stderr = raw.stderr
      .split('\n')
      .filter((line) => !LOG_LINE.test(line))
      .join('\n');
    const result = base.interpret({ ...raw, stderr });
    const fallback = AGENT_FALLBACK.exec(raw.stderr);
    if (fallback)
      return {
        ...result,
        classification: 'failed',
        detail: `opencode has no agent "${fallback[1]}" and ran its default agent instead: check the agents in your opencode config`,
      };
    // Named here only where the shared words did not name it already.
    const unnamed = /^opencode reported an error: /;
    if (
      result.classification === 'failed' &&
      unnamed.test(result.detail ?? '') &&
      UNREACHABLE.test(result.detail ?? '')
    ) {
      return { ...result, detail: `API unreachable: ${(result.detail ?? '').replace(unnamed, '')}` };
    }
    // Exit 0 is not "done" here: the run stopped at the refused tool call, before any answer.
    const rejected = AUTO_REJECTED.exec(raw.stderr);
    if (rejected && result.classification === 'ok' && !result.finalText.trim()) {
      return {
        ...result,
        classification: 'failed',
        detail: `opencode stopped at a permission it had to refuse in headless mode (${rejected[1]}), without an answer`,
      };
    }
    return result;
  },
};
