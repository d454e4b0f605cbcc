import { existsSync } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { excludeLinks, ignoredEntries, prepareWorktree } from '../team/worktree-setup.js';
import { gitRun } from './git-run.js';

/** Build caches shared with the user's tree rather than rebuilt (Rust's `target/` beside a Cargo.toml). */
const SHARED_CACHES = new Set(['target']);
/** Ignored folders that are the runner's or a tool's own and regenerate on their own: never copied. */
const REGENERATED = new Set(['__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.tox', '.nox', '.git']);
/** Ignored files the tests may read (a `.env`, a built `dist/`, generated fixtures) are copied up to these bounds. */
const MAX_COPIED_FILES = 2000;
/** 64 MB: a built bundle or fixtures, not a data set; past it the worktree would take longer than the loop's first run. */
const MAX_COPIED_BYTES = 64 * 1024 * 1024;

/** How the worktree was made to run like the user's tree, and what it still lacks (one line each). */
export interface WorktreeEnv {
  linked: string[];
  copied: string[];
  missing: string[];
  /** PYTHONPATH entries that make editable installs import the worktree's files, not the user's. */
  pythonPath: string[];
  notes: string[];
}

/** Every file under `path` (a file itself, or a folder's files), relative to `root`, up to `limit`. */
async function filesUnder(root: string, path: string, limit: number, out: string[]): Promise<void> {
  if (out.length > limit) return;
  const s = await lstat(join(root, path)).catch(() => null);
  if (!s) return;
  if (!s.isDirectory()) {
    out.push(path);
    return;
  }
  if (REGENERATED.has(basename(path))) return;
  for (const name of await readdir(join(root, path)).catch(() => [] as string[]))
    await filesUnder(root, join(path, name), limit, out);
}

/**
 * Python packages installed in editable mode point at the user's tree (a `.pth` line, or a setuptools finder's
 * mapping): the tests in the worktree would import the user's files. Each such path, moved into the worktree,
 * goes first on PYTHONPATH.
 */
async function editableInstalls(root: string, dir: string, venvs: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const venv of venvs) {
    const lib = join(root, venv, 'lib');
    for (const python of await readdir(lib).catch(() => [] as string[])) {
      const site = join(lib, python, 'site-packages');
      for (const name of await readdir(site).catch(() => [] as string[])) {
        if (!name.endsWith('.pth') && !/^__editable__.*finder\.py$/.test(name)) continue;
        const text = await readFile(join(site, name), 'utf8').catch(() => '');
        const paths = name.endsWith('.pth')
          ? text.split('\n').map((l) => l.trim())
          : [...text.matchAll(/'([^']+)'/g)].map((m) => dirname(m[1]!));
        for (const p of paths) if (p === root || p.startsWith(root + sep)) found.add(join(dir, relative(root, p)));
      }
    }
  }
  return [...found];
}

/**
 * The submodules the user has checked out, cloned into the worktree from their checkouts (objects shared, no
 * network) at the commit the snapshot pins; an empty one stays empty, as in the user's tree.
 */
async function cloneSubmodules(root: string, dir: string, env: WorktreeEnv): Promise<void> {
  const status = await gitRun(root, ['submodule', 'status']);
  for (const line of status.stdout.split('\n').filter(Boolean)) {
    const path = line.slice(1).split(' ')[1];
    if (!path || line.startsWith('-')) continue;
    const pinned = /^160000 commit ([0-9a-f]+)\t/.exec((await gitRun(dir, ['ls-tree', 'HEAD', '--', path])).stdout);
    const cloned = await gitRun(root, [
      'clone',
      '--quiet',
      '--shared',
      '--no-checkout',
      join(root, path),
      join(dir, path),
    ]);
    const checked =
      pinned &&
      cloned.code === 0 &&
      (await gitRun(join(dir, path), ['checkout', '--quiet', '--detach', pinned[1]!])).code === 0;
    if (checked) env.copied.push(`${path} (submodule)`);
    else env.missing.push(`${path} (a submodule that could not be cloned from your checkout)`);
  }
}

/**
 * Makes the session's worktree run like the user's tree: installed dependencies at any depth linked (team's
 * worktree set-up), build caches shared, other ignored files the tests may read copied (bounded), editable Python
 * installs redirected, and what cannot be reproduced named with the way out (--in-place). `ignored`: the user's
 * ignored entries, when the caller listed them already.
 */
export async function prepareSessionWorktree(
  root: string,
  dir: string,
  ignored?: readonly string[],
): Promise<WorktreeEnv> {
  const entries = ignored ?? (await ignoredEntries(root));
  const setup = await prepareWorktree(root, dir, entries);
  const env: WorktreeEnv = {
    linked: setup.linked,
    copied: setup.copied,
    missing: setup.missing,
    pythonPath: [],
    notes: [],
  };
  const handled = new Set([...setup.linked, ...setup.copied]);
  const toCopy: string[] = [];
  for (const e of entries) {
    if (handled.has(e) || existsSync(join(dir, e))) continue;
    const name = basename(e);
    if (SHARED_CACHES.has(name) && existsSync(join(root, dirname(e), 'Cargo.toml'))) {
      await mkdir(dirname(join(dir, e)), { recursive: true });
      await excludeLinks(root, [e]);
      await symlink(join(root, e), join(dir, e)).then(
        () => env.linked.push(e),
        () => undefined,
      );
      continue;
    }
    if (REGENERATED.has(name)) continue;
    await filesUnder(root, e, MAX_COPIED_FILES, toCopy);
  }
  let bytes = 0;
  const over: string[] = [];
  for (const file of toCopy) {
    const s = await lstat(join(root, file)).catch(() => null);
    if (!s || (!s.isFile() && !s.isSymbolicLink())) continue;
    bytes += s.size;
    if (env.copied.length >= MAX_COPIED_FILES || bytes > MAX_COPIED_BYTES) {
      over.push(file);
      continue;
    }
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await copyFile(join(root, file), join(dir, file)).then(
      () => env.copied.push(file),
      () => env.missing.push(`${file} (could not be copied)`),
    );
  }
  // The walk stops past the bound: what is left is named by its first file.
  if (over.length)
    env.missing.push(
      `${over[0]} and the ignored files after it (past ${MAX_COPIED_FILES} files or ${MAX_COPIED_BYTES >> 20} MB of ignored files copied)`,
    );
  const venvs = setup.linked.filter((e) => ['.venv', 'venv'].includes(basename(e)));
  env.pythonPath = await editableInstalls(root, dir, venvs);
  if (env.pythonPath.length)
    env.notes.push(
      `editable Python installs point at your tree: the tests import ${env.pythonPath.map((p) => relative(dir, p) || '.').join(', ')} from the worktree through PYTHONPATH`,
    );
  if (existsSync(join(root, '.gitmodules'))) await cloneSubmodules(root, dir, env);
  return env;
}

/** One line for the log: what was linked, copied and lacks, with the way out. */
export function describeEnv(env: WorktreeEnv): string[] {
  const lines: string[] = [];
  const list = (xs: string[]) =>
    xs.length > 4 ? `${xs.slice(0, 4).join(', ')} and ${xs.length - 4} more` : xs.join(', ');
  if (env.linked.length) lines.push(`worktree: linked ${list(env.linked)}`);
  if (env.copied.length) lines.push(`worktree: copied ${list(env.copied)}`);
  lines.push(...env.notes.map((n) => `worktree: ${n}`));
  for (const m of env.missing) lines.push(`worktree: cannot reproduce ${m}; if the tests need it, pass --in-place`);
  return lines;
}
