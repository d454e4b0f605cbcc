import { stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { watch } from 'chokidar';
import { Repo } from '../../git.js';
import type { AgentAdapter, AgentCall, AgentRequest, AgentSpec } from '../agent.js';
import { describeFailures, manualPlan, readManualResults } from './manual-plan.js';

/** Options of the manual agent. */
export interface ManualOptions {
  /** How long the files must stay quiet after the last save before the fix counts as done; default 1000 ms. */
  quietMs?: number;
}

/** 1 s: long enough for an editor's save-and-format to settle, short enough to feel immediate. */
export const DEFAULT_QUIET_MS = 1000;

/** Folders that are never the user's fix and can be huge. */
const IGNORED_DIRS = new Set([
  '.git',
  'node_modules',
  '.workflow',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.tox',
  'target',
  'coverage',
  '.next',
  '.cache',
]);

/** Editors' swap, backup and lock files: opening a file must not count as fixing it. */
const EDITOR_TEMP = /(\.sw[a-p]x?|~|\.tmp|\.bak|\.orig)$|(^|[\\/])(\.#[^\\/]*|#[^\\/]*#|4913)$/;

function ignoredPath(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (!rel || rel.startsWith('..')) return false;
  return rel.split(sep).some((part) => IGNORED_DIRS.has(part)) || EDITOR_TEMP.test(rel);
}

/** `--quiet-ms=1500` or `--quiet-ms 1500` among the agent's extra arguments. */
function quietFromArgs(args: readonly string[]): number | undefined {
  for (let i = 0; i < args.length; i++) {
    const m = /^--quiet-ms(?:=(\d+))?$/.exec(args[i]!);
    if (!m) continue;
    const value = Number(m[1] ?? args[i + 1]);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  return undefined;
}

type Outcome = Omit<AgentCall, 'agent' | 'role'>;

function outcome(
  started: number,
  fields: Pick<AgentCall, 'classification' | 'finalText'> & Partial<AgentCall>,
  lines: string[],
): Outcome {
  const timedOut = fields.classification === 'timeout';
  return {
    exitCode: fields.classification === 'ok' ? 0 : null,
    timedOut,
    durationMs: Date.now() - started,
    stdout: lines.join('\n'),
    stderr: '',
    ...fields,
  };
}

/** Changed files (as git sees them) with their modification time and size: what "the user saved" means. */
async function snapshot(repo: Repo): Promise<Map<string, string>> {
  const files = (await repo.changedFiles()).filter((f) => !EDITOR_TEMP.test(f));
  const entries = await Promise.all(
    files.map(async (f) => {
      const s = await stat(join(repo.root, f)).catch(() => null);
      return [f, s ? `${s.mtimeMs}:${s.size}` : 'deleted'] as const;
    }),
  );
  return new Map(entries);
}

function differs(a: Map<string, string>, b: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [file, mark] of b) if (a.get(file) !== mark) changed.add(file);
  for (const file of a.keys()) if (!b.has(file)) changed.add(file);
  return [...changed].sort();
}

async function analyze(request: AgentRequest, started: number): Promise<Outcome> {
  const read = await readManualResults(request.env.FIXCYCLE_TEST_RESULTS);
  if (!read.ok) return outcome(started, { classification: 'failed', detail: read.error, finalText: '' }, []);
  const finalText = JSON.stringify(manualPlan(read.results), null, 2);
  return outcome(started, { classification: 'ok', finalText, detail: 'plan made from the failure messages' }, [
    finalText,
  ]);
}

/** Waits for the user's fix: saved changes followed by `quietMs` without any, or an abort, or the timeout. */
async function waitForFix(request: AgentRequest, quietMs: number, started: number): Promise<Outcome> {
  const lines: string[] = [];
  const say = (text: string[]): void => {
    lines.push(...text);
    request.onLines?.(text);
  };
  const repo = await Repo.open(request.cwd);
  const before = await snapshot(repo);
  const read = await readManualResults(request.env.FIXCYCLE_TEST_RESULTS);
  const watcher = watch(repo.root, { ignoreInitial: true, ignored: (path) => ignoredPath(repo.root, path) });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return new Promise<Outcome>((resolve) => {
    let timer: NodeJS.Timeout | null = null;
    let limit: NodeJS.Timeout | null = null;
    let settled = false;
    const finish = (result: Outcome): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      if (limit) clearTimeout(limit);
      request.signal?.removeEventListener('abort', onAbort);
      void watcher.close().then(() => resolve(result));
    };
    const onAbort = (): void =>
      finish(outcome(started, { classification: 'failed', detail: 'stopped by the user', finalText: '' }, lines));
    const settle = async (): Promise<void> => {
      const changed = differs(before, await snapshot(repo));
      if (settled || changed.length === 0) return;
      say([`manual: you changed ${changed.join(', ')}; re-running the tests`]);
      finish(
        outcome(
          started,
          {
            classification: 'ok',
            detail: `you changed ${changed.length} file${changed.length === 1 ? '' : 's'}: ${changed.join(', ')}`,
            finalText: lines.join('\n'),
          },
          lines,
        ),
      );
    };
    watcher.on('all', (_event, path) => {
      if (settled || ignoredPath(repo.root, path)) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void settle(), quietMs);
    });
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    limit = setTimeout(
      () =>
        finish(
          outcome(
            started,
            { classification: 'timeout', detail: 'no change saved before the agent timeout', finalText: '' },
            lines,
          ),
        ),
      request.timeoutMs,
    );
    say([
      'manual fix: no AI agent; you fix the code yourself. The failing tests:',
      ...(read.ok ? describeFailures(read.results) : [`  (${read.error})`]),
      `Edit and save the files; once nothing has changed for ${quietMs} ms, fixcycle re-runs the tests. Waiting for your changes...`,
    ]);
  });
}

/**
 * The manual agent: no CLI. Analysing, it turns the failures into a plan with confidence 1; fixing, it shows
 * what fails and waits while the user edits the files, ending once saved changes have been quiet for `quietMs`
 * (extra argument `--quiet-ms N` overrides it), or when the loop aborts the call.
 */
export function createManualAdapter(options: ManualOptions = {}): AgentAdapter {
  return {
    name: 'manual',
    buildCommand() {
      // Nothing is spawned: `run` takes the call. Shown by `fixcycle doctor` as an empty command.
      return { argv: [], stdin: false };
    },
    interpret() {
      return { classification: 'failed', detail: 'the manual agent runs in-process', finalText: '' };
    },
    async run(spec: AgentSpec, request: AgentRequest) {
      const started = Date.now();
      if (request.role === 'analyze') return analyze(request, started);
      const quietMs = quietFromArgs(spec.command) ?? options.quietMs ?? DEFAULT_QUIET_MS;
      try {
        return await waitForFix(request, quietMs, started);
      } catch (error) {
        return outcome(
          started,
          {
            classification: 'failed',
            detail: `cannot watch ${request.cwd}: ${(error as Error).message}`,
            finalText: '',
          },
          [],
        );
      }
    },
  };
}

export const manualAdapter = createManualAdapter();
