import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { EngineEvent } from '../engine/events.js';
import { serialPasses, watchAndPoll } from '../engine/session/file-watch.js';
import type { TestResults } from '../engine/types.js';
import { FileTail } from './file-tail.js';
import { eventsFromState, readLocalization, readTestResults } from './state-events.js';

/** Options of `mirrorSession`. */
export interface MirrorOptions {
  /** The session folder (`.workflow/active/WFS-test-<name>`). */
  dir: string;
  /** Where the synthesized EngineEvents go (the store's `apply`). */
  apply(event: EngineEvent): void;
  /** Says in one line what is wrong with a file (the last good state stays on screen); null once the files read well again. */
  warn(text: string | null): void;
  /** How often files are checked when change events do not come (network drives, editors that swap files). Default: 1000 ms. */
  pollMs?: number;
}

/** One short line for a state file that cannot be used now (the reader's own message names a full path and a fix for the loop). */
function stateWarning(error: string): string {
  if (/not valid JSON/.test(error))
    return 'iteration-state.json is half-written or not JSON: showing the last good state';
  if (/does not exist/.test(error)) return 'waiting for iteration-state.json';
  const detail = error.split('can use: ')[1] ?? error;
  return `iteration-state.json is not an iteration state (${detail}): showing the last good state`;
}

/** A running mirror. */
export interface SessionMirror {
  /** Reads every file again now (resolves when done). */
  refresh(): Promise<void>;
  stop(): void;
}

// 1 s: a human watching a loop does not notice, and stat() on three files once a second costs nothing.
const POLL_MS = 1000;
// 25 ms: an atomic rename shows up as two or three events in a row; one read covers them.
const SETTLE_MS = 25;

/**
 * Mirrors a session written by another process into EngineEvents: iteration-state.json (state, phases,
 * outcome), test-results.json (results, failures), the current iteration's failures record (suspects) and
 * test-output.log (new lines). It watches the folder with fs.watch and also polls slowly, and never lets a
 * half-written or foreign file replace a good state.
 */
export function mirrorSession(options: MirrorOptions): SessionMirror {
  const processDir = join(options.dir, '.process');
  const statePath = join(processDir, 'iteration-state.json');
  const resultsPath = join(processDir, 'test-results.json');
  const tail = new FileTail(join(processDir, 'test-output.log'));
  const seen = new Map<string, string>();
  let results: TestResults | null = null;
  let iteration = 0;
  let lastWarning = '';

  const warn = (text: string) => {
    if (text === lastWarning) return;
    lastWarning = text;
    options.warn(text);
  };

  /** True when the file changed since it was last read (size or mtime), remembering the new stamp. */
  const changed = async (path: string): Promise<boolean> => {
    const info = await stat(path).catch(() => null);
    const stamp = info ? `${info.size}:${info.mtimeMs}` : 'absent';
    if (seen.get(path) === stamp) return false;
    seen.set(path, stamp);
    return info !== null;
  };

  const readResults = async () => {
    if (!(await changed(resultsPath))) return false;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(resultsPath, 'utf8'));
    } catch {
      seen.delete(resultsPath);
      warn(`${basename(resultsPath)} is half-written or not JSON: showing the last good results`);
      return false;
    }
    const read = readTestResults(parsed);
    if (!read) {
      warn(`${basename(resultsPath)} is not a test-results file fixcycle can read: showing the last good results`);
      return false;
    }
    results = read;
    return true;
  };

  const readState = async (resultsChanged: boolean) => {
    if (!(await changed(statePath)) && !resultsChanged) return;
    // The state reader (and zod) load on the first read, after the first frame is up.
    const { readIterationState } = await import('../engine/session/state-file.js');
    const read = await readIterationState(statePath);
    if (!read.ok) {
      // A file caught mid-write is read again on the next event or poll.
      seen.delete(statePath);
      warn(stateWarning(read.error));
      return;
    }
    if (lastWarning) {
      lastWarning = '';
      options.warn(null);
    }
    iteration = read.state.current_iteration;
    if (resultsChanged && results) options.apply({ type: 'results', iteration, results });
    for (const event of eventsFromState(read.state, results)) options.apply(event);
  };

  /** The current iteration's suspects, from its failures record, while the results are the failures it ranked. */
  const readSuspects = async (resultsChanged: boolean) => {
    const path = join(processDir, `iteration-${iteration}-failures.json`);
    if (!(await changed(path)) && !resultsChanged) return;
    const text = await readFile(path, 'utf8').catch(() => null);
    let localization = null;
    try {
      localization = text === null ? null : readLocalization(JSON.parse(text), results);
    } catch {
      // Half-written: read again on the next event or poll.
      seen.delete(path);
    }
    if (localization) options.apply({ type: 'suspects', iteration, localization });
  };

  const pass = async () => {
    const resultsChanged = await readResults();
    await readState(resultsChanged);
    if (iteration > 0) await readSuspects(resultsChanged);
    const { lines, reset } = await tail.read();
    if (reset) options.apply({ type: 'output-reset', label: 'test output of a new run' });
    if (lines.length > 0) options.apply({ type: 'output', lines });
  };

  const passes = serialPasses(pass, (error) => warn(`cannot read the session: ${error.message}`));
  const refresh = passes.run;

  let settle: ReturnType<typeof setTimeout> | null = null;
  // A folder not there yet (or no inotify): the poll still sees the files appear.
  const unwatch = watchAndPoll(
    processDir,
    (name) => {
      if (name === null) return void refresh();
      if (settle) return;
      settle = setTimeout(() => {
        settle = null;
        void refresh();
      }, SETTLE_MS);
    },
    options.pollMs ?? POLL_MS,
  );
  void refresh();

  return {
    refresh,
    stop() {
      passes.stop();
      unwatch();
      if (settle) clearTimeout(settle);
    },
  };
}
