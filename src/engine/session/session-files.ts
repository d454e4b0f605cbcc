import { appendFile, mkdir, readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TestResults } from '../types.js';
import { writeJsonAtomic, writeTextAtomic } from './atomic.js';
import { claimFolder } from './claim-folder.js';
import { activeDir, SESSION_PREFIX, sessionPaths, type SessionPaths } from './paths.js';
import type { FixHistoryEntry, FixPlan, IterationState } from './schema.js';

// zod builds its schemas when loaded (~30 ms at start-up): read only when a file is, not by every run that starts.
const schemas = () => import('./schema.js');
import { readIterationState } from './state-file.js';

/** The content of .task/IMPL-fix-N.json. */
export interface FixTask {
  id: string;
  title: string;
  status: 'pending' | 'in_progress' | 'completed' | 'failed' | 'rejected';
  meta: { type: 'test-fix-iteration'; iteration: number; max_iterations: number; agent?: string };
  context: {
    failure_context: { failed_tests: string[]; pass_rate: number; error_messages: string[] };
    fix_strategy: Record<string, unknown> & { strategy: string; strategy_reason: string };
  };
}

/** A baseline entry: a test seen in the session's first full run. */
export interface BaselineTest {
  id: string;
  name: string;
  file?: string;
  /** Skipped in the first run: it does not count towards the pass rate. */
  skipped?: boolean;
}

/** A session file that exists but cannot be used; the message names the file, the cause and the fix. */
export class SessionFileError extends Error {}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SessionFileError(
      `${path} is not valid JSON (${(error as Error).message}): restore it, or start a new session without --resume-session`,
    );
  }
}

/** Reads and writes the files of one session folder; every write is atomic. */
export class SessionFiles {
  readonly paths: SessionPaths;

  constructor(
    readonly repo: string,
    readonly id: string,
  ) {
    this.paths = sessionPaths(repo, id);
  }

  async ensureFolders(): Promise<void> {
    await Promise.all(
      [this.paths.taskDir, this.paths.processDir, this.paths.summariesDir].map((dir) =>
        mkdir(dir, { recursive: true }),
      ),
    );
  }

  /** Makes the session folder; false when it is already there (taken by another session, or one starting now). */
  async claim(): Promise<boolean> {
    await mkdir(dirname(this.paths.dir), { recursive: true });
    return claimFolder(this.paths.dir);
  }

  async exists(): Promise<boolean> {
    return stat(this.paths.iterationState).then(
      () => true,
      () => false,
    );
  }

  saveState(state: IterationState): Promise<void> {
    return writeJsonAtomic(this.paths.iterationState, { ...state, updated_at: new Date().toISOString() });
  }

  async readState(): Promise<IterationState> {
    const read = await readIterationState(this.paths.iterationState);
    if (!read.ok)
      throw new SessionFileError(`${read.error}; restore it, or start a new session without --resume-session`);
    return read.state;
  }

  saveWorkflowSession(meta: Record<string, unknown>): Promise<void> {
    return writeJsonAtomic(this.paths.workflowSession, meta);
  }

  saveResults(results: TestResults): Promise<void> {
    return writeJsonAtomic(this.paths.testResults, results);
  }

  readResults(): Promise<TestResults | null> {
    return readJson<TestResults>(this.paths.testResults);
  }

  saveBaseline(tests: BaselineTest[]): Promise<void> {
    return writeJsonAtomic(this.paths.baseline, tests);
  }

  async readBaseline(): Promise<BaselineTest[] | null> {
    return readJson<BaselineTest[]>(this.paths.baseline);
  }

  async readHistory(): Promise<FixHistoryEntry[]> {
    const raw = await readJson<unknown>(this.paths.fixHistory);
    if (raw === null) return [];
    const parsed = (await schemas()).fixHistorySchema.safeParse(raw);
    if (!parsed.success)
      throw new SessionFileError(
        `${this.paths.fixHistory} is not a fix history (${parsed.error.issues[0]?.message}): restore it, or delete it to forget earlier attempts`,
      );
    return parsed.data;
  }

  /** Adds or replaces (same iteration) an entry, so a resumed iteration is not recorded twice. */
  async recordFix(entry: FixHistoryEntry): Promise<FixHistoryEntry[]> {
    const history = (await this.readHistory()).filter((e) => e.iteration !== entry.iteration);
    history.push(entry);
    history.sort((a, b) => a.iteration - b.iteration);
    await writeJsonAtomic(this.paths.fixHistory, history);
    return history;
  }

  writeTask(iteration: number, task: FixTask): Promise<void> {
    return writeJsonAtomic(this.paths.task(iteration), task);
  }

  readTask(iteration: number): Promise<FixTask | null> {
    return readJson<FixTask>(this.paths.task(iteration));
  }

  /** The fix plan saved in IMPL-fix-N.json, or null when that iteration has no valid plan. */
  async readPlan(iteration: number): Promise<FixPlan | null> {
    const task = await this.readTask(iteration);
    const parsed = (await schemas()).fixPlanSchema.safeParse(task?.context.fix_strategy);
    return parsed.success ? parsed.data : null;
  }

  writeAnalysis(iteration: number, markdown: string): Promise<void> {
    return writeTextAtomic(this.paths.analysis(iteration), markdown);
  }

  writeCliOutput(iteration: number, text: string): Promise<void> {
    return writeTextAtomic(this.paths.cliOutput(iteration), text);
  }

  async readCliOutputText(iteration: number): Promise<string> {
    return readFile(this.paths.cliOutput(iteration), 'utf8').catch(() => '');
  }

  writeFailures(iteration: number, failures: unknown): Promise<void> {
    return writeJsonAtomic(this.paths.failures(iteration), failures);
  }

  /** One JSON line per agent call: append-only, so a crash loses at most the call in flight. */
  appendAgentCall(call: Record<string, unknown>): Promise<void> {
    return appendFile(this.paths.agentCalls.replace(/\.json$/, '.jsonl'), JSON.stringify(call) + '\n');
  }

  async readAgentCalls(): Promise<Record<string, unknown>[]> {
    try {
      const text = await readFile(this.paths.agentCalls.replace(/\.json$/, '.jsonl'), 'utf8');
      return text
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return []; // the last line of a killed process may be torn
          }
        });
    } catch {
      return [];
    }
  }

  writeSummary(name: string, markdown: string): Promise<void> {
    return writeTextAtomic(join(this.paths.summariesDir, name), markdown);
  }
}

/** The most recently updated session of a repository, or null when it has none. */
export async function findLatestSession(repo: string): Promise<string | null> {
  const root = activeDir(repo);
  let names: string[];
  try {
    names = (await readdir(root)).filter((n) => n.startsWith(SESSION_PREFIX));
  } catch {
    return null;
  }
  let best: { id: string; mtime: number } | null = null;
  for (const id of names) {
    const file = sessionPaths(repo, id).iterationState;
    const info = await stat(file).catch(() => null);
    if (info && (!best || info.mtimeMs > best.mtime)) best = { id, mtime: info.mtimeMs };
  }
  return best?.id ?? null;
}
