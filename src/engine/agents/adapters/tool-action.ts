import type { AgentActivity } from '../agent.js';
import { isObject, str } from './parse-output.js';

type ToolAction = Extract<AgentActivity, { kind: 'tool' }>['action'];

/** The tool names of claude, gemini and qwen, by what the tool does. */
const ACTIONS: Record<string, ToolAction> = {
  read: 'read',
  read_file: 'read',
  read_many_files: 'read',
  notebookread: 'read',
  edit: 'edit',
  replace: 'edit',
  multiedit: 'edit',
  notebookedit: 'edit',
  write: 'write',
  write_file: 'write',
  bash: 'run',
  run_shell_command: 'run',
  glob: 'search',
  grep: 'search',
  grep_search: 'search',
  search_file_content: 'search',
  list_directory: 'search',
  ls: 'search',
  websearch: 'search',
  google_web_search: 'search',
};

/** What a tool does, from its name. */
export function toolAction(name: string): ToolAction {
  return ACTIONS[name.toLowerCase()] ?? 'other';
}

/** The file, command or pattern a tool call works on, for the one-line display. */
export function toolTarget(input: unknown): string | undefined {
  if (!isObject(input)) return undefined;
  const target =
    str(input.file_path) ??
    str(input.absolute_path) ??
    str(input.path) ??
    str(input.notebook_path) ??
    str(input.command) ??
    str(input.pattern) ??
    str(input.dir_path) ??
    str(input.url) ??
    str(input.query);
  return target === undefined ? undefined : target.split('\n')[0]!.slice(0, 200);
}

/** One tool-call activity. */
export function toolActivity(name: string, input: unknown, denied = false): AgentActivity {
  const target = toolTarget(input);
  return {
    kind: 'tool',
    tool: name,
    action: toolAction(name),
    ...(target !== undefined ? { target } : {}),
    ...(denied ? { denied } : {}),
  };
}

/** The tool a refusal names: claude's "No such tool available: Write", qwen's `permission to use "write_file"`, gemini's `Tool "write_file" not found`. */
export function deniedToolName(text: string): string | undefined {
  return (
    /No such tool available: (\w+)/.exec(text)?.[1] ??
    /permission to use "(\w+)"/.exec(text)?.[1] ??
    /Tool "(\w+)" not found/.exec(text)?.[1] ??
    /Unauthorized tool call: '(\w+)'/.exec(text)?.[1] ??
    /The tool "(\w+)" cannot be executed/.exec(text)?.[1]
  );
}
