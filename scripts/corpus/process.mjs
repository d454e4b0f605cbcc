// Bounded child processes for the corpus: every command runs in its own process group and is killed with
// its whole tree when its time is up, so one hung project never stalls the run.
import { spawn } from 'node:child_process';

/**
 * Runs a command (argv, or a string for `sh -c`) and resolves with its exit code, output and duration.
 * Never rejects: a command that cannot start resolves with code null and the error in `stderr`.
 */
export function run(command, { cwd, env = process.env, timeoutMs = 300_000, input } = {}) {
  const [file, args] = typeof command === 'string' ? ['sh', ['-c', command]] : [command[0], command.slice(1)];
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const child = spawn(file, args, {
      cwd,
      env,
      detached: true,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child.pid);
    }, timeoutMs);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    if (input !== undefined) child.stdin.end(input);
    const finish = (code, extra = '') => {
      clearTimeout(timer);
      // A runner's leftover children (watchers, workers) must not outlive the measured run.
      killTree(child.pid);
      resolve({
        code,
        stdout,
        stderr: stderr + extra,
        timedOut,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    };
    child.on('error', (error) => finish(null, String(error.message)));
    child.on('close', (code) => finish(code));
  });
}

function killTree(pid) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Like run(), but throws with the command's tail of output when it fails. */
export async function runOrThrow(command, options) {
  const result = await run(command, options);
  if (result.code !== 0) {
    const tail = (result.stdout + result.stderr).trim().split('\n').slice(-15).join('\n');
    const why = result.timedOut ? 'timed out' : `exited ${result.code}`;
    throw new Error(
      `${Array.isArray(command) ? command.join(' ') : command} ${why} in ${options?.cwd ?? '.'}:\n${tail}`,
    );
  }
  return result;
}
