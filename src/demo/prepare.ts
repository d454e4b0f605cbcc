import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { execa } from 'execa';
import { packageRoot } from '../package-root.js';

/** A problem preparing the demo that the user can fix; the message names the cause and the fix. */
export class DemoError extends Error {}

/** Options of prepareDemo. */
export interface PrepareDemoOptions {
  /**
   * Where to create the demo repository. It must not exist or be empty, and it is kept: cleanup() leaves it.
   * Default: a new folder under the system temp directory, which cleanup() removes.
   */
  dir?: string;
}

/** A demo repository ready for the loop, and the commands to drive it with. */
export interface DemoProject {
  /** Absolute path of the git repository holding the copy of the demo library (one commit, clean tree). */
  repo: string;
  /** The demo's test command: plain `node --test`. */
  testCmd: string[];
  /** The scripted demo agent, speaking the agent command protocol: this Node binary and the script's absolute path. */
  agentCmd: string[];
  /** Removes the temp folder prepareDemo created; does nothing when `dir` was given. */
  cleanup(): Promise<void>;
}

const EXAMPLES = join(packageRoot(import.meta.url), 'examples');

/** The bundled demo library and scripted agent, checked to be there. */
export function demoSources(examples = EXAMPLES): { project: string; agent: string } {
  const project = join(examples, 'demo-lib');
  const agent = join(examples, 'demo-agent.mjs');
  for (const path of [project, agent]) {
    if (!existsSync(path)) {
      throw new DemoError(
        `the bundled demo is missing (${path} not found): reinstall fixcycle, or run it from a full clone`,
      );
    }
  }
  return { project, agent };
}

const SKIPPED = new Set(['node_modules', '.git', '.workflow']);

/**
 * Copies the bundled demo library into a fresh git repository with one commit, so that `fixcycle demo`
 * (and tests) can run the whole loop on it with the scripted demo agent.
 */
export async function prepareDemo(options: PrepareDemoOptions = {}): Promise<DemoProject> {
  const { project, agent } = demoSources();
  const kept = options.dir !== undefined;
  const root: ClaimedDir =
    options.dir !== undefined
      ? await claimEmptyDir(resolve(options.dir))
      : { path: await mkdtemp(join(tmpdir(), 'fixcycle-demo-')), created: true };
  // In a temp folder the repository gets a readable name: fixcycle names the session after it.
  const repo = kept ? root.path : join(root.path, 'demo-lib');
  try {
    await cp(project, repo, { recursive: true, filter: (source) => !SKIPPED.has(basename(source)) });
    await commitInitial(repo);
  } catch (error) {
    await undo(root);
    if (error instanceof DemoError) throw error;
    throw new DemoError(`cannot prepare the demo in ${repo}: ${(error as Error).message}`);
  }
  return {
    repo,
    testCmd: ['node', '--test'],
    agentCmd: [process.execPath, agent],
    cleanup: kept ? async () => {} : () => rm(root.path, { recursive: true, force: true }),
  };
}

interface ClaimedDir {
  path: string;
  /** True when prepareDemo made the folder, so undoing may remove the folder itself. */
  created: boolean;
}

async function claimEmptyDir(path: string): Promise<ClaimedDir> {
  if (!existsSync(path)) {
    await mkdir(path, { recursive: true });
    return { path, created: true };
  }
  let entries: string[];
  try {
    entries = await readdir(path);
  } catch {
    throw new DemoError(`${path} is not a folder: choose a new or empty folder for the demo`);
  }
  if (entries.length > 0) throw new DemoError(`${path} is not empty: choose a new or empty folder for the demo`);
  return { path, created: false };
}

async function undo(dir: ClaimedDir): Promise<void> {
  if (dir.created) {
    await rm(dir.path, { recursive: true, force: true });
    return;
  }
  for (const entry of await readdir(dir.path)) await rm(join(dir.path, entry), { recursive: true, force: true });
}

// A parent repository's variables would redirect every git call away from the demo folder.
const GIT_ENV = { GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined };

async function git(repo: string, args: string[]): Promise<void> {
  try {
    await execa('git', args, { cwd: repo, env: GIT_ENV, stdin: 'ignore' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new DemoError('git is not installed or not on PATH: install git to run the demo');
    }
    const detail = (error as { stderr?: string }).stderr?.trim().split('\n')[0] ?? (error as Error).message;
    throw new DemoError(`git ${args[0]} failed in the demo folder ${repo}: ${detail}`);
  }
}

async function commitInitial(repo: string): Promise<void> {
  await git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  // A local identity so the demo commits on machines without a global one, and no signing prompt.
  await git(repo, ['config', 'user.name', 'fixcycle demo']);
  await git(repo, ['config', 'user.email', 'demo@fixcycle.invalid']);
  await git(repo, ['config', 'commit.gpgsign', 'false']);
  await git(repo, ['add', '-A']);
  await git(repo, ['commit', '-q', '--no-verify', '-m', 'demo-lib: a small utility library with three injected bugs']);
}
