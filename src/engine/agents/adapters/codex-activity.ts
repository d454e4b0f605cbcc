import type { AgentActivity, Progress } from '../agent.js';
import { jsonLine, textActivity } from './activity-text.js';
import { isObject, num, str, sum } from './parse-output.js';

/** `Reconnecting... 2/5 (unexpected status 401 Unauthorized: ...)` and `Reconnecting... waiting for network (...)`. */
const RECONNECTING = /^Reconnecting\.\.\.\s*(?:\d+\/\d+|waiting for network)?\s*(?:\((.*)\))?\s*$/s;

/** The error inside a `Reconnecting...` message, or the message itself. */
export function unwrapReconnecting(message: string): string {
  const match = RECONNECTING.exec(message.trim());
  return match?.[1]?.trim() || message.trim();
}

export function isReconnecting(message: string): boolean {
  return RECONNECTING.test(message.trim());
}

/** `ERROR codex_core::tools::router: error=patch rejected: writing is blocked by read-only sandbox; ...` */
const REFUSED_PATCH = /\bERROR\b.*\berror=patch rejected\b/;

/** `/bin/bash -lc 'npm test'` -> `npm test`: the command as the model wrote it. */
export function shellCommand(command: string): string {
  const wrapped = /^\S*\/?(?:ba|z)?sh -l?c '(.*)'$/s.exec(command.trim());
  return (wrapped ? wrapped[1]!.replace(/'\\''/g, "'") : command).trim();
}

function itemActivities(type: string, item: Record<string, unknown>): AgentActivity[] {
  switch (item.type) {
    case 'command_execution':
      // Shown when it starts, so a long `npm test` is on screen while it runs.
      return type === 'item.started'
        ? [{ kind: 'tool', tool: 'exec_command', action: 'run', target: shellCommand(str(item.command) ?? '') }]
        : [];
    case 'file_change': {
      if (type !== 'item.completed') return [];
      const denied = item.status !== 'completed';
      const changes = Array.isArray(item.changes) ? item.changes.filter(isObject) : [];
      return changes.map((change) => ({
        kind: 'tool' as const,
        tool: 'apply_patch',
        action: change.kind === 'add' ? ('write' as const) : ('edit' as const),
        target: str(change.path) ?? '',
        ...(denied ? { denied } : {}),
      }));
    }
    case 'agent_message':
      return type === 'item.completed' ? textActivity(str(item.text)) : [];
    case 'mcp_tool_call':
      return type === 'item.started'
        ? [{ kind: 'tool', tool: `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`, action: 'other' }]
        : [];
    case 'web_search':
      return type === 'item.started'
        ? [{ kind: 'tool', tool: 'web_search', action: 'search', target: str(item.query) ?? '' }]
        : [];
    default:
      return [];
  }
}

/**
 * One line of `codex exec --json` as what the agent is doing: commands as they start, files as they change,
 * messages, `Reconnecting...` errors as retries (they are progress: only `turn.failed` is fatal), usage at the end.
 */
export function codexActivity(line: string, stream: 'stdout' | 'stderr'): AgentActivity[] {
  // A write the sandbox refused shows only in codex's log on stderr, never as an item on stdout.
  if (stream !== 'stdout')
    return REFUSED_PATCH.test(line) ? [{ kind: 'tool', tool: 'apply_patch', action: 'edit', denied: true }] : [];
  const event = jsonLine(line);
  if (!event) return [];
  const type = str(event.type) ?? '';
  if ((type === 'item.started' || type === 'item.completed') && isObject(event.item))
    return itemActivities(type, event.item);
  if (type === 'error') {
    const message = str(event.message) ?? '';
    return isReconnecting(message) ? [{ kind: 'retry', detail: unwrapReconnecting(message) }] : [];
  }
  if (type === 'turn.completed') {
    const usage = isObject(event.usage) ? event.usage : {};
    const tokens = sum(num(usage.input_tokens), num(usage.output_tokens));
    return tokens === undefined ? [] : [{ kind: 'usage', tokens }];
  }
  if (type === 'turn.failed') {
    const error = isObject(event.error) ? str(event.error.message) : undefined;
    return [{ kind: 'error', detail: unwrapReconnecting(error ?? 'turn failed') }];
  }
  return [];
}

/** Items that run something (a command, an MCP tool, a search) between their `item.started` and `item.completed`. */
const RUNNING_ITEMS = new Set(['command_execution', 'mcp_tool_call', 'web_search']);

/**
 * Whether a line of `codex exec --json` is the model at work: items (reasoning, messages, patches; commands and
 * tools from start to end) and completed turns. `error` events (`Reconnecting...`), thread and turn starts and
 * codex's log on stderr are not.
 */
export function codexProgress(line: string, stream: 'stdout' | 'stderr'): Progress | null {
  const event = stream === 'stdout' ? jsonLine(line) : undefined;
  const type = event ? str(event.type) : undefined;
  if (type === 'turn.completed') return { toolsStarted: 0, toolsEnded: 0 };
  if (type !== 'item.started' && type !== 'item.completed' && type !== 'item.updated') return null;
  const running = isObject(event!.item) && RUNNING_ITEMS.has(str(event!.item.type) ?? '');
  return {
    toolsStarted: running && type === 'item.started' ? 1 : 0,
    toolsEnded: running && type === 'item.completed' ? 1 : 0,
  };
}
