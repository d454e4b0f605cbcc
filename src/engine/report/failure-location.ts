import { normalizeFile } from './test-id.js';

/** Where a failure happened: a file relative to the project root, and its line and column when known. */
export interface Where {
  file: string;
  line?: number;
  column?: number;
}

// A stack frame's `path:line:column`, with or without parentheses, `file://` URLs included.
const FRAME = /\(?((?:file:\/\/)?[^\s()]+\.(?:[cm]?[jt]sx?|py|go|rs)):(\d+):(\d+)\)?/g;

/** A place in the project, not in node_modules or node's internals; its file relative to the root. */
export function userFrame(where: Where, rootDir?: string): Where | undefined {
  if (/(^|\/)node_modules\/|^node:|^internal\//.test(where.file)) return undefined;
  return { ...where, file: normalizeFile(where.file, rootDir) ?? where.file };
}

/** The first frame of a stack in the project's own code. */
export function locationInStack(stack: string, rootDir?: string): Where | undefined {
  for (const match of stack.matchAll(FRAME)) {
    const found = userFrame({ file: match[1]!, line: Number(match[2]), column: Number(match[3]) }, rootDir);
    if (found) return found;
  }
  return undefined;
}

/** `at test/math.test.js:4:50`, the line a failure message ends with. */
export function atLine(where: Where): string {
  return `at ${where.file}${where.line ? `:${where.line}` : ''}${where.column ? `:${where.column}` : ''}`;
}

/** A failure message ending with where it failed, from the first frame of its stack in the project. */
export function withLocation(message: string, stack: string | undefined, rootDir?: string): string {
  const where = stack ? locationInStack(stack, rootDir) : undefined;
  return where ? `${message}\n${atLine(where)}` : message;
}
