import type { AgentActivity } from '../agent.js';
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
      return type === 'item.started' ? [{ kind: 'tool', tool: 'exec_command', action: 'run', target: shellCommand(str(item.command) ?? '') }] : [];
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
      return type === 'item.started' ? [{ kind: 'tool', tool: `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`, action: 'other' }] : [];
    case 'web_search':
      return type === 'item.started' ? [{ kind: 'tool', tool: 'web_search', action: 'search', target: str(item.query) ?? '' }] : [];
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
  if (stream !== 'stdout') return REFUSED_PATCH.test(line) ? [{ kind: 'tool', tool: 'apply_patch', action: 'edit', denied: true }] : [];
  const event = jsonLine(line);
  if (!event) return [];
  const type = str(event.type) ?? '';
  if ((type === 'item.started' || type === 'item.completed') && isObject(event.item)) return itemActivities(type, event.item);
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
