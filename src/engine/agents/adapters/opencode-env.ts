import type { AgentRole } from '../agent.js';

/**
 * What the analysis may not do, whatever the user's own permissions say: opencode's `plan` agent still runs
 * `bash` (a `sed -i` changed a file in 1.18), and `task` starts sub-agents that have their own tools.
 */
const READ_ONLY = { bash: 'deny', edit: 'deny', task: 'deny' } as const;

/** The user's OPENCODE_PERMISSION as an object: a single action ("allow") applies to every tool. */
function userPermission(value: string | undefined): Record<string, unknown> {
  if (!value) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'string') return { '*': parsed };
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The environment opencode runs with: for analysis, the user's permissions with every writing tool denied. */
export function opencodeEnv(role: AgentRole, userEnv: NodeJS.ProcessEnv): Record<string, string> {
  if (role !== 'analyze') return {};
  return { OPENCODE_PERMISSION: JSON.stringify({ ...userPermission(userEnv.OPENCODE_PERMISSION), ...READ_ONLY }) };
}
