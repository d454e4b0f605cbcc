/** Where a command writes: stdout for results, stderr for messages. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

let readerGone = false;
let watching = false;

/**
 * The reader of stdout went away (`fixcycle run --headless | head -3`). A process that keeps writing gets EPIPE,
 * which Node throws from the next write: the run would die in the middle of a step, a fix half applied and the
 * session link out of the tree. Instead later results are dropped and a command that is still working stops as on
 * Ctrl-C (the running step killed, the session resumable). One whose work is done (its SIGTERM handler gone, only
 * its last lines left to print) ends with its own exit code.
 */
function watchReader(): void {
  if (watching) return;
  watching = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    if (readerGone) return;
    readerGone = true;
    if (process.listenerCount('SIGTERM') > 0) process.kill(process.pid, 'SIGTERM');
  });
}

export const processOutput: Output = {
  stdout: (text) => {
    if (readerGone) return;
    watchReader();
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  },
  stderr: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};
