import { execFile } from 'node:child_process';

/**
 * Writing the worktree's files is most of its cost on a large repository, and it waits on the file system more than
 * on a core: git's parallel checkout (2.32+; an older git ignores the settings) writes with several workers from
 * a hundred files up. On a 10,000-file tree, 8 workers took a third of one worker's time on 2 cores.
 */
export const PARALLEL_CHECKOUT = ['-c', 'checkout.workers=8', '-c', 'checkout.thresholdForParallelism=100'];

/** What one git call left: its exit (0 on success), stdout and stderr. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git <args>` in `cwd`; never rejects (the caller reads the code). `env` adds to the process environment. */
export function gitRun(
  cwd: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string | Buffer } = {},
): Promise<GitResult> {
  return new Promise((done) => {
    const child = execFile(
      'git',
      args,
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs `git <args>` and resolves with its stdout; rejects with git's first line of error. */
export async function gitOut(
  cwd: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string | Buffer } = {},
): Promise<string> {
  const r = await gitRun(cwd, args, options);
  if (r.code !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr.trim().split('\n')[0] || `exit ${r.code}`}`);
  return r.stdout;
}

/** Runs `git <args>` and resolves with its exit code and raw stdout (file contents, kept byte for byte). */
export function gitBytes(cwd: string, args: readonly string[]): Promise<{ code: number; stdout: Buffer }> {
  return new Promise((done) => {
    execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 }, (error, stdout) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout }),
    );
  });
}
