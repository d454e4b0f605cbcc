import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { workflowDir } from '../session/paths.js';
import { listProjectFiles } from '../affected/list-files.js';
import { branchChange, wholeFiles, type Change } from './changes.js';
import { isSourceFile } from './source-files.js';

/** A problem with what `fixcycle gen` was given; the message names cause and fix (exit 2). */
export class GenInputError extends Error {}

export type InputMode = 'prompt' | 'session' | 'change';

/** What gen was asked to cover, and the change it found for it. */
export interface GenInput {
  mode: InputMode;
  raw: string | null;
  description: string;
  sourceSessionId: string | null;
  change: Change;
}

const STOP = new Set([
  'the',
  'and',
  'for',
  'with',
  'new',
  'cover',
  'test',
  'tests',
  'testing',
  'add',
  'code',
  'logic',
  'that',
  'this',
  'from',
  'into',
  'all',
  'its',
  'of',
  'module',
  'function',
  'functions',
  'file',
  'files',
  'unit',
  'write',
  'more',
]);

/** The words of a description that could name a file, module or function. */
function terms(description: string): string[] {
  return [
    ...new Set(
      description
        .toLowerCase()
        .split(/[^a-z0-9_./-]+/)
        .flatMap((w) => [w, ...w.split(/[./_-]/)])
        .filter((w) => w.length >= 3 && !STOP.has(w)),
    ),
  ];
}

/** Source files a description names: by path, by file name, or by an identifier they declare. */
async function filesNamedBy(root: string, description: string): Promise<string[]> {
  const sources = (await listProjectFiles(root)).filter(isSourceFile);
  const words = terms(description);
  if (words.length === 0) return [];
  const lower = description.toLowerCase();
  const byPath = sources.filter((f) => lower.includes(f.toLowerCase()));
  if (byPath.length > 0) return byPath;
  const byName = sources.filter((f) => words.includes(basename(f, extname(f)).toLowerCase()));
  if (byName.length > 0) return byName;
  const found: string[] = [];
  for (const file of sources.slice(0, 5_000)) {
    const text = (await readFile(join(root, file), 'utf8').catch(() => '')).toLowerCase();
    const declared = [...text.matchAll(/(?:function|class|def|func|const|let|var)\s+([a-z0-9_$]+)/g)].map((m) => m[1]!);
    if (declared.some((name) => words.some((w) => name === w || (w.length >= 5 && name.includes(w))))) found.push(file);
  }
  return found;
}

/** Where a Claude-Code-Workflow session lives: .workflow/active or .workflow/archives. */
function sessionFolder(root: string, id: string): string | null {
  for (const where of ['active', 'archives']) {
    const dir = join(workflowDir(root), where, id);
    if (existsSync(dir)) return dir;
  }
  return null;
}

/** Every string in a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** The source files an implementation session's completed tasks and summaries name. */
async function sessionFiles(root: string, id: string): Promise<{ files: string[]; titles: string[] }> {
  const dir = sessionFolder(root, id);
  if (!dir)
    throw new GenInputError(
      `session ${id} does not exist in .workflow/active or .workflow/archives: check the id (ls .workflow/active .workflow/archives)`,
    );
  const taskDir = join(dir, '.task');
  const names = (await readdir(taskDir).catch(() => [] as string[])).filter((n) => /^IMPL-.*\.json$/.test(n));
  const completed: unknown[] = [];
  for (const name of names) {
    try {
      const task = JSON.parse(await readFile(join(taskDir, name), 'utf8')) as { status?: string };
      if (task.status === 'completed') completed.push(task);
    } catch {
      // A task file that is not JSON names nothing.
    }
  }
  if (completed.length === 0)
    throw new GenInputError(
      `session ${id} has no completed task in ${taskDir}: finish its implementation first, or pass a description of what to test`,
    );
  const texts = strings(completed);
  const summaries = join(dir, '.summaries');
  for (const name of await readdir(summaries).catch(() => [] as string[]))
    texts.push(await readFile(join(summaries, name), 'utf8').catch(() => ''));
  const sources = new Set((await listProjectFiles(root)).filter(isSourceFile));
  const files = new Set<string>();
  for (const text of texts)
    for (const token of text.split(/[\s`'"(),;[\]]+/)) {
      const path = token.replace(/^\.\//, '').replace(/:\d+.*$/, '');
      if (sources.has(path)) files.add(path);
    }
  const titles = completed
    .map((t) => (t as { title?: string }).title)
    .filter((t): t is string => typeof t === 'string');
  return { files: [...files], titles };
}

/** Reads INPUT: a WFS- session id, a .md file holding a description, a description, or nothing. */
export async function readGenInput(root: string, raw: string | undefined): Promise<GenInput> {
  const input = raw?.trim() || null;
  if (input && /^WFS-/.test(input)) {
    const { files, titles } = await sessionFiles(root, input);
    if (files.length === 0)
      throw new GenInputError(
        `session ${input}'s completed tasks and summaries name no source file of this repository: pass a description of what to test instead`,
      );
    const change = await wholeFiles(root, files, `the files session ${input} implemented`);
    return {
      mode: 'session',
      raw: input,
      description: titles.join('; ') || `the implementation of ${input}`,
      sourceSessionId: input,
      change,
    };
  }
  if (input === null) {
    const change = await branchChange(root);
    if (change.files.length === 0)
      throw new GenInputError(
        `${change.describedAs} changes no source file to test: pass a description ("cover src/retry.ts") or a WFS- session id`,
      );
    return { mode: 'change', raw: null, description: `Cover ${change.describedAs}`, sourceSessionId: null, change };
  }
  let description = input;
  if (input.endsWith('.md')) {
    const path = join(root, input);
    const text = await readFile(existsSync(path) ? path : input, 'utf8').catch(() => null);
    if (text === null)
      throw new GenInputError(
        `${input} does not exist: pass the path of a markdown file holding the description, or the description itself`,
      );
    description = text.trim();
    if (!description) throw new GenInputError(`${input} is empty: write what to test in it`);
  }
  const files = await filesNamedBy(root, description);
  if (files.length === 0) {
    throw new GenInputError(
      `the description names nothing to test (no source file, module or function here matches "${description.slice(0, 60)}"): name a file or function, e.g. fixcycle gen "cover src/retry.ts"`,
    );
  }
  const change = await wholeFiles(root, files, `the code the description names`);
  return { mode: 'prompt', raw: input, description, sourceSessionId: null, change };
}
