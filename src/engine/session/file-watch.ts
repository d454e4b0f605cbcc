import { watch, type FSWatcher } from 'node:fs';

/**
 * One pass at a time: a request while a pass runs makes one more pass after it (not one per request),
 * so a burst of file events costs at most two reads. Errors go to `onError`; after `stop` nothing runs.
 */
export function serialPasses(
  pass: () => Promise<void>,
  onError: (error: Error) => void,
): { run(): Promise<void>; stop(): void } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = pass()
      .catch(onError)
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  };
  return { run, stop: () => void (stopped = true) };
}

/**
 * Calls `onChange` on fs.watch events of `path` (when it can be watched) and every `pollMs` besides, for file
 * systems and editors whose changes send no event. Returns the function that stops both.
 */
export function watchAndPoll(path: string, onChange: (name: string | null) => void, pollMs: number): () => void {
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(path, (_event, name) => onChange(name));
    watcher.on('error', () => {
      watcher?.close();
      watcher = null;
    });
  } catch {
    // Not there yet (or no inotify): the poll still sees changes.
  }
  const timer = setInterval(() => onChange(null), pollMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    watcher?.close();
  };
}
