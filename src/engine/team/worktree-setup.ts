import { existsSync } from 'node:fs';
import { appendFile, copyFile, mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { execa } from 'execa';

/** Installed dependencies a project's tests, typecheck and linter load: shared with the main tree, read-only in spirit. */
const DEPENDENCY_NAMES = new Set(['node_modules', '.venv', 'venv', 'vendor', '.bundle', '.pnp.cjs', '.pnp.loader.mjs']);
/** Small ignored settings tests read (`.env.test`): copied, so a task cannot change the main tree's. */
const isEnvFile = (name: string): boolean => name === '.env' || name.startsWith('.env.');

export interface WorktreeSetup {
  /** What the worktree now shares with the main tree (linked) or got a copy of. */
  linked: string[];
  copied: string[];
  /** What a task there still lacks, one line each: shown in the task's detail and on the discovery board. */
  missing: string[];
}

/** The main tree's ignored files and folders (`--directory` names an ignored folder once), the session folder aside. */
export async function ignoredEntries(root: string): Promise<string[]> {
  const r = await execa('git', ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z'], {
    cwd: root,
    reject: false,
  });
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((e) => e.replace(/\/$/, ''))
    .filter((e) => !e.startsWith('.workflow'));
}

/** Ignores the links in every worktree: `node_modules/` in a .gitignore matches a folder, never a symlink. */
export async function excludeLinks(root: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const common = (await execa('git', ['rev-parse', '--git-common-dir'], { cwd: root })).stdout.trim();
  const exclude = join(isAbsolute(common) ? common : join(root, common), 'info', 'exclude');
  const current = await readFile(exclude, 'utf8').catch(() => '');
  const have = new Set(current.split('\n').map((l) => l.trim()));
  const lines = paths.map((p) => `/${p}`).filter((l) => !have.has(l));
  if (lines.length === 0) return;
  await mkdir(dirname(exclude), { recursive: true });
  await appendFile(
    exclude,
    `${current && !current.endsWith('\n') ? '\n' : ''}# fixcycle team: dependencies linked into task worktrees\n${lines.join('\n')}\n`,
  );
}

/**
 * npm reads a symlinked node_modules as packages outside the project (extraneous links): `npm ls` fails and
 * `npm audit` asks the registry about every dev dependency, so a `posttest: aud --production` that passes in the
 * user's tree fails in the worktree. A copy of hard links is the same tree to npm and costs no space; where it
 * cannot be made (another file system, a cp without -l) the folder is linked.
 */
async function hardLinkedCopy(from: string, to: string): Promise<boolean> {
  const copied = await execa('cp', ['-al', from, to], { reject: false });
  if (copied.exitCode === 0) return true;
  await rm(to, { recursive: true, force: true });
  return false;
}

/**
 * Makes a fresh task worktree able to build and test like the main tree: links the main tree's installed
 * dependencies (node_modules and the like, never committed) and copies its ignored .env files. What a Node project
 * needs and the main tree does not have either is reported, not skipped silently.
 */
export async function prepareWorktree(root: string, dir: string, ignored?: readonly string[]): Promise<WorktreeSetup> {
  const setup: WorktreeSetup = { linked: [], copied: [], missing: [] };
  const entries = ignored ?? (await ignoredEntries(root));
  const links = entries.filter((e) => DEPENDENCY_NAMES.has(basename(e)));
  await excludeLinks(root, links);
  for (const e of links) {
    const target = join(dir, e);
    if (existsSync(target)) continue;
    await mkdir(dirname(target), { recursive: true });
    if (basename(e) !== 'node_modules' || !(await hardLinkedCopy(join(root, e), target)))
      await symlink(join(root, e), target);
    setup.linked.push(e);
  }
  for (const e of entries.filter((x) => isEnvFile(basename(x)) && !existsSync(join(dir, x)))) {
    await mkdir(dirname(join(dir, e)), { recursive: true });
    await copyFile(join(root, e), join(dir, e)).then(
      () => setup.copied.push(e),
      () => setup.missing.push(`${e} (could not be copied)`),
    );
  }
  const pkg = await readFile(join(root, 'package.json'), 'utf8').catch(() => '');
  if (/"(dev)?[dD]ependencies"\s*:\s*\{\s*"/.test(pkg) && !links.includes('node_modules'))
    setup.missing.push(
      'node_modules (package.json has dependencies but the main tree has none installed: run your package manager there)',
    );
  return setup;
}

/** `linked node_modules; copied .env.test; missing ...`, or '' when there is nothing to say. */
export function describeSetup(s: WorktreeSetup): string {
  return [
    s.linked.length ? `linked ${s.linked.join(', ')}` : '',
    s.copied.length ? `copied ${s.copied.join(', ')}` : '',
    s.missing.length ? `missing ${s.missing.join('; ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}
