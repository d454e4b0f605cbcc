import { existsSync, readFileSync } from 'node:fs';
import type { AdvertisedTool, Protocol, Reply, StandInStep } from './types.js';

type EditStep = Extract<StandInStep, { type: 'edit' }>;

/** Facts about one request that decide how an `edit` step is spelt for the CLI that sent it. */
export interface EditContext {
  protocol: Protocol;
  tools: AdvertisedTool[];
  /** The CLI's working directory when the request names it (codex's `<cwd>`), for relative patch paths. */
  cwd?: string;
  userAgent: string;
}

const EDIT_TOOLS = ['Edit', 'replace', 'edit'];
const READ_TOOLS = ['Read', 'read_file', 'read'];

/** The first of `candidates` among a tool's parameters, else the first candidate. */
function param(tool: AdvertisedTool | undefined, candidates: string[]): string {
  return candidates.find((name) => tool?.params.includes(name)) ?? candidates[0]!;
}

/**
 * The whole lines `old` sits in, before and after the edit: a patch swaps whole lines, so it must carry their
 * indentation. The stand-in runs on the CLI's machine and reads the file; without it the text stands alone.
 */
function wholeLines(step: EditStep): { before: string; after: string } {
  const content = existsSync(step.file) ? readFileSync(step.file, 'utf8') : '';
  const at = content.indexOf(step.old);
  if (at < 0) return { before: step.old, after: step.new };
  const start = content.lastIndexOf('\n', at - 1) + 1;
  const endAt = content.indexOf('\n', at + step.old.length);
  const end = endAt < 0 ? content.length : endAt;
  const before = content.slice(start, end);
  return { before, after: before.replace(step.old, step.new) };
}

/** codex's apply_patch: paths relative to its working directory, the lines swapped one for one. */
export function patchFor(step: EditStep, cwd: string | undefined): string {
  const path = cwd && step.file.startsWith(`${cwd}/`) ? step.file.slice(cwd.length + 1) : step.file;
  const { before, after } = wholeLines(step);
  const minus = before.split('\n').map((line) => `-${line}`);
  const plus = after.split('\n').map((line) => `+${line}`);
  return ['*** Begin Patch', `*** Update File: ${path}`, '@@', ...minus, ...plus, '*** End Patch', ''].join('\n');
}

/** The edit tool a CLI would have, named by its protocol, when the request advertises none (analysis). */
function fallbackEditTool(context: EditContext): AdvertisedTool {
  if (context.protocol === 'anthropic')
    return { name: 'Edit', kind: 'function', params: ['file_path', 'old_string', 'new_string'] };
  if (context.protocol === 'gemini')
    return { name: 'replace', kind: 'function', params: ['file_path', 'instruction', 'old_string', 'new_string'] };
  const qwen = /qwen/i.test(context.userAgent) || context.tools.some((t) => t.name === 'read_file');
  return qwen
    ? { name: 'edit', kind: 'function', params: ['file_path', 'old_string', 'new_string'] }
    : { name: 'edit', kind: 'function', params: ['filePath', 'oldString', 'newString'] };
}

/**
 * The replies an `edit` step becomes for the CLI that sent the request, one per model turn: the CLI's own
 * read (where its edit tool requires one) and edit tool calls, or codex's apply_patch, then the final text.
 */
export function expandEdit(step: EditStep, context: EditContext): Reply[] {
  const done: Reply = { kind: 'text', text: step.text ?? 'Done.' };
  const advertised = (name: string): AdvertisedTool | undefined => context.tools.find((t) => t.name === name);
  const patchTool = context.tools.find((t) => t.name === 'apply_patch' && t.kind === 'custom');
  if (patchTool || (context.protocol === 'responses' && !EDIT_TOOLS.some(advertised)))
    return [{ kind: 'patch', patch: patchFor(step, context.cwd) }, done];
  const editTool = EDIT_TOOLS.map(advertised).find(Boolean) ?? fallbackEditTool(context);
  const pathParam = param(editTool, ['file_path', 'filePath', 'absolute_path', 'path']);
  const input: Record<string, unknown> = {
    [pathParam]: step.file,
    [param(editTool, ['old_string', 'oldString'])]: step.old,
    [param(editTool, ['new_string', 'newString'])]: step.new,
  };
  // gemini's replace wants a reason, and reads the file itself.
  if (editTool.name === 'replace')
    return [
      {
        kind: 'tool',
        name: 'replace',
        input: { ...input, instruction: `Replace \`${step.old}\` with \`${step.new}\`.` },
      },
      done,
    ];
  const readTool = READ_TOOLS.map(advertised).find(Boolean);
  const read: Reply[] = readTool
    ? [
        {
          kind: 'tool',
          name: readTool.name,
          input: { [param(readTool, ['file_path', 'filePath', 'absolute_path', 'path'])]: step.file },
        },
      ]
    : [];
  return [...read, { kind: 'tool', name: editTool.name, input }, done];
}
