import { execa } from 'execa';
import { isSourceFile } from './source-files.js';

/** One changed source file and the lines the change added or modified (new-file line numbers). */
export interface ChangedFile {
  file: string;
  lines: number[];
  hunks: { start: number; count: number }[];
}

/** The change gen works on: which commits, and the source files it touches. */
export interface Change {
  base: string | null;
  head: string;
  describedAs: string;
  files: ChangedFile[];
}

/** A git command's trimmed stdout, and whether it succeeded (never throws). */
export async function git(root: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  const r = await execa('git', args, { cwd: root, reject: false });
  return { ok: r.exitCode === 0, out: r.stdout.trim() };
}

/** The default branch: origin's HEAD, else main or master when they exist. */
export async function defaultBranch(root: string): Promise<string | null> {
  const remote = await git(root, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']);
  if (remote.ok && remote.out) return remote.out;
  for (const name of ['main', 'master', 'trunk', 'develop']) {
    if ((await git(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${name}`])).ok) return name;
  }
  return null;
}

/** Parses `git diff -U0` into added line numbers per file. */
export function parseZeroContextDiff(diff: string): Map<string, { start: number; count: number }[]> {
  const files = new Map<string, { start: number; count: number }[]>();
  let current: string | null = null;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const path = line.slice(4).trim();
      current = path === '/dev/null' ? null : path.replace(/^b\//, '');
      if (current && !files.has(current)) files.set(current, []);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && current) {
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      if (count > 0) files.get(current)!.push({ start: Number(hunk[1]), count });
    }
  }
  return files;
}

function toChangedFiles(hunks: Map<string, { start: number; count: number }[]>): ChangedFile[] {
  return [...hunks]
    .filter(([file, h]) => isSourceFile(file) && h.length > 0)
    .map(([file, h]) => ({
      file,
      hunks: h,
      lines: h.flatMap((x) => Array.from({ length: x.count }, (_, i) => x.start + i)),
    }))
    .sort((a, b) => a.file.localeCompare(b.file));
}

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * The change on this branch: against the merge base with the default branch, or the last commit when
 * the branch is the default branch (or has nothing of its own).
 */
export async function branchChange(root: string): Promise<Change> {
  const head = (await git(root, ['rev-parse', 'HEAD'])).out;
  const branch = (await git(root, ['rev-parse', '--abbrev-ref', 'HEAD'])).out;
  const main = await defaultBranch(root);
  if (main && main !== branch && main !== `origin/${branch}`) {
    const base = await git(root, ['merge-base', main, 'HEAD']);
    if (base.ok && base.out && base.out !== head) {
      const diff = await git(root, ['diff', '-U0', '--no-color', '--no-renames', base.out, 'HEAD']);
      return {
        base: base.out,
        head,
        describedAs: `the change on ${branch} since its merge base with ${main} (${base.out.slice(0, 7)})`,
        files: toChangedFiles(parseZeroContextDiff(diff.out)),
      };
    }
  }
  const parent = await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD~1']);
  const base = parent.ok ? parent.out : EMPTY_TREE;
  const diff = await git(root, ['diff', '-U0', '--no-color', '--no-renames', base, 'HEAD']);
  return {
    base: parent.ok ? parent.out : null,
    head,
    describedAs: `the last commit (${head.slice(0, 7)})`,
    files: toChangedFiles(parseZeroContextDiff(diff.out)),
  };
}

/** Whole files as the target (a description or a session named them): every line counts as changed. */
export async function wholeFiles(root: string, files: string[], describedAs: string): Promise<Change> {
  const head = (await git(root, ['rev-parse', 'HEAD'])).out;
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const out: ChangedFile[] = [];
  for (const file of [...new Set(files)].filter(isSourceFile).sort()) {
    const text = await readFile(join(root, file), 'utf8').catch(() => null);
    if (text === null) continue;
    const count = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    out.push({ file, hunks: [{ start: 1, count }], lines: Array.from({ length: count }, (_, i) => i + 1) });
  }
  return { base: null, head, describedAs, files: out };
}
