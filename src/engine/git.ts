import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { WORKFLOW_DIR } from './session/paths.js';
import { placeSessionLink } from './session/session-link.js';

/**
 * Runs `git <args>` in the repository and resolves with its stdout; rejects with git's own message when it fails.
 * A plain child process: simple-git's logger set-up alone cost ~80 ms of every start.
 */
function gitCall(cwd: string, args: string[]): Promise<{ stdout: string; stderr: string; error: Error | null }> {
  return new Promise((done) => {
    execFile('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ stdout, stderr, error }),
    );
  });
}

async function runGit(cwd: string, args: string[]): Promise<string> {
  const { stdout, stderr, error } = await gitCall(cwd, args);
  if (error) throw new Error(stderr.trim() || error.message);
  return stdout;
}

/** What `git status` says after a test run (see Repo.workTreeStatus). */
export interface WorkTreeStatus {
  /** HEAD's commit; null when git names none. */
  head: string | null;
  /** Some tracked file is modified, staged, deleted or unmerged. */
  trackedChanges: boolean;
  untracked: string[];
}

/** A git problem the user can fix; the message names the cause and the fix. */
export class GitSafetyError extends Error {}

/** The repository as fixcycle needs it: checkpoints, exact reverts, and nothing of the user's lost. */
export class Repo {
  private readonly git: { raw(args: string[]): Promise<string> };

  private constructor(
    readonly root: string,
    /** The absolute git directory (a linked worktree's own). */
    readonly gitDir: string,
  ) {
    this.git = { raw: (args) => runGit(root, args) };
  }

  /** Opens the repository containing `dir`, or throws a GitSafetyError saying what is wrong. */
  static async open(dir: string): Promise<Repo> {
    // One git call answers all three questions: where the root is, whether HEAD has a commit, which branch.
    const probe = await gitCall(dir, [
      'rev-parse',
      '--show-toplevel',
      '--absolute-git-dir',
      'HEAD',
      '--symbolic-full-name',
      'HEAD',
    ]);
    const [root, gitDir, head, ref] = probe.stdout.trim().split('\n');
    if (/must be run in a work tree/.test(probe.stderr)) {
      throw new GitSafetyError(
        `${dir} is a bare repository (no working tree to test): clone it (git clone ${dir} work) and run fixcycle in the clone`,
      );
    }
    if (!root || /not a git repository/.test(probe.stderr)) {
      throw new GitSafetyError(
        `${dir} is not a git repository: run \`git init\` and commit your code first, so fixcycle can checkpoint and roll back fixes`,
      );
    }
    if (probe.error || !head || !/^[0-9a-f]{40,64}$/.test(head)) {
      throw new GitSafetyError(
        'the repository has no commits yet: commit your code first (git add -A && git commit -m "initial"), so fixcycle can roll back fixes',
      );
    }
    if (!ref?.startsWith('refs/heads/')) {
      throw new GitSafetyError(
        "HEAD is detached: check out a branch first (git switch -c fixcycle), so fixcycle's commits are not lost",
      );
    }
    return new Repo(root, gitDir!);
  }

  /**
   * Keeps the session folder out of git without touching the user's .gitignore, and out of the user's own
   * tools: a new `.workflow` is a link to a folder inside the git directory, which linters and formatters
   * globbing the tree (`prettier --check '**\/*.{md,json}'`, `eslint .`) never enter, so fixcycle's files
   * cannot change what the test command says; tools that follow links do not see it either, as the link is out
   * of the tree while the user's command runs (see withoutSessionLink). Where no link can be made, it stays a
   * plain folder.
   */
  async excludeSessionFolder(options: { link?: boolean } = {}): Promise<void> {
    // A linked worktree (a team executor's) too: its user's command runs there. Its sessions, in the worktree's
    // own git directory, are copied out before the worktree is removed.
    if (options.link) await placeSessionLink(this.root, this.gitDir);
    const exclude = join(this.gitDir, 'info', 'exclude');
    // No trailing slash: the line must match the link as well as a folder.
    const line = `/${WORKFLOW_DIR}`;
    const current = await readFile(exclude, 'utf8').catch(() => '');
    if (current.split('\n').some((l) => l.trim() === line)) return;
    await mkdir(join(this.gitDir, 'info'), { recursive: true });
    await appendFile(exclude, `${current && !current.endsWith('\n') ? '\n' : ''}# fixcycle session files\n${line}\n`);
  }

  /** Paths with uncommitted changes (modified, staged, untracked not ignored), repository-relative. */
  async changedFiles(): Promise<string[]> {
    const out = await this.git.raw(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
    const files: string[] = [];
    const parts = out.split('\0');
    for (let i = 0; i < parts.length; i++) {
      const entry = parts[i]!;
      if (entry.length < 4) continue;
      const code = entry.slice(0, 2);
      files.push(entry.slice(3));
      // A rename or copy is followed by its source path.
      if (code.includes('R') || code.includes('C')) files.push(parts[++i]!);
    }
    return [...new Set(files)].sort();
  }

  /** Untracked paths that are not ignored, repository-relative. */
  async untrackedFiles(): Promise<string[]> {
    const out = await this.git.raw(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
    return out
      .split('\0')
      .filter((entry) => entry.startsWith('?? '))
      .map((entry) => entry.slice(3))
      .sort();
  }

  /**
   * One `git status` for what every test run leaves to record: HEAD, whether tracked files have uncommitted
   * changes, and the untracked files (not ignored), repository-relative and sorted.
   */
  async workTreeStatus(): Promise<WorkTreeStatus> {
    const out = await this.git.raw(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']);
    const status: WorkTreeStatus = { head: null, trackedChanges: false, untracked: [] };
    const parts = out.split('\0');
    for (let i = 0; i < parts.length; i++) {
      const entry = parts[i]!;
      if (entry.startsWith('# branch.oid '))
        status.head = /^[0-9a-f]{40,64}$/.test(entry.slice(13)) ? entry.slice(13) : null;
      else if (entry.startsWith('? ')) status.untracked.push(entry.slice(2));
      else if (/^[12u] /.test(entry)) {
        status.trackedChanges = true;
        // A rename or copy (`2 ...`) is followed by its source path.
        if (entry.startsWith('2 ')) i++;
      }
    }
    status.untracked.sort();
    return status;
  }

  async isDirty(): Promise<boolean> {
    return (await this.changedFiles()).length > 0;
  }

  async head(): Promise<string> {
    return (await this.git.raw(['rev-parse', 'HEAD'])).trim();
  }

  /**
   * Commits exactly these files (added, modified or deleted) and nothing else the index may hold.
   * Returns the new commit's sha, or null when the files had no change.
   */
  async commitFiles(files: readonly string[], message: string): Promise<string | null> {
    if (files.length === 0) return null;
    await this.git.raw(['add', '--all', '--', ...files]);
    const staged = (await this.git.raw(['diff', '--cached', '--name-only', '--', ...files])).trim();
    if (!staged) return null;
    await this.git.raw(['commit', '--no-verify', '-m', message, '--', ...files]);
    return this.head();
  }

  /** Commits everything uncommitted as a checkpoint (for --allow-dirty). */
  async commitAll(message: string): Promise<string | null> {
    const files = await this.changedFiles();
    return this.commitFiles(files, message);
  }

  /** Reverts exactly one commit with a commit of its own; returns the revert's sha. */
  async revertCommit(sha: string, message: string): Promise<string> {
    await this.git.raw(['revert', '--no-edit', '--no-commit', sha]);
    await this.git.raw(['commit', '--no-verify', '--allow-empty', '-m', message]);
    return this.head();
  }

  /** Puts these files back as HEAD has them (a fix that was rejected before being committed). */
  async restoreFiles(files: readonly string[]): Promise<void> {
    if (files.length === 0) return;
    const tracked = (await this.git.raw(['ls-files', '-z', '--', ...files])).split('\0').filter(Boolean);
    const trackedSet = new Set(tracked);
    if (tracked.length > 0) await this.git.raw(['checkout', 'HEAD', '--', ...tracked]);
    const untracked = files.filter((f) => !trackedSet.has(f));
    // Files the fix created: remove only those, never anything else untracked.
    if (untracked.length > 0) await this.git.raw(['clean', '-f', '-q', '--', ...untracked]);
  }

  /** The unified diff of these uncommitted files against HEAD, new files included (the index is left alone). */
  async diff(files: readonly string[]): Promise<string> {
    if (files.length === 0) return '';
    const tracked = new Set((await this.git.raw(['ls-files', '-z', '--', ...files])).split('\0').filter(Boolean));
    const inHead = files.filter((f) => tracked.has(f));
    let out = inHead.length > 0 ? await this.git.raw(['diff', 'HEAD', '--', ...inHead]) : '';
    for (const file of files.filter((f) => !tracked.has(f))) {
      // --no-index exits 1 when the files differ, which is the point here.
      const result = await gitCall(this.root, ['diff', '--no-index', '--', '/dev/null', file]);
      out += result.stdout + (result.stdout.endsWith('\n') ? '' : '\n');
    }
    return out;
  }

  async commitMessage(sha: string): Promise<string> {
    return (await this.git.raw(['log', '-1', '--format=%s', sha])).trim();
  }

  /** Is `sha` an ancestor of HEAD (still in the history)? */
  async contains(sha: string): Promise<boolean> {
    try {
      await this.git.raw(['merge-base', '--is-ancestor', sha, 'HEAD']);
      return true;
    } catch {
      return false;
    }
  }

  async log(max = 20): Promise<{ sha: string; message: string }[]> {
    const out = await this.git.raw(['log', `-${max}`, '--format=%H%x09%s']);
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [sha, ...rest] = line.split('\t');
        return { sha: sha!, message: rest.join('\t') };
      });
  }
}
