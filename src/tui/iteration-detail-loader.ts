import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Iteration } from '../engine/session/schema.js';

const run = promisify(execFile);

/** A line of the iteration view; headings are drawn bold. */
export interface DetailLine {
  text: string;
  heading?: boolean;
}

/** Where an iteration's files are and which commit holds its fix. */
export interface DetailSource {
  sessionDir: string;
  /** The repository, for `git show`; null when unknown. */
  repo: string | null;
  iteration: number;
  /** The iteration's entry in iteration-state.json, for its commit and file names. */
  entry?: Iteration;
}

// 400 lines: an analysis longer than this is read in the file itself; the view says where.
const MAX_SECTION_LINES = 400;

function section(title: string, lines: string[]): DetailLine[] {
  const kept = lines.slice(0, MAX_SECTION_LINES).map((text) => ({ text }));
  const cut =
    lines.length > MAX_SECTION_LINES ? [{ text: `… ${lines.length - MAX_SECTION_LINES} more lines in the file` }] : [];
  return [{ text: title, heading: true }, ...kept, ...cut, { text: '' }];
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function list(label: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) return [];
  return [`${label}:`, ...value.map((item) => `  - ${typeof item === 'string' ? item : JSON.stringify(item)}`)];
}

/** The fix plan's fields as lines, wherever the task file keeps them (fixcycle's context.fix_strategy or a flat plan). */
function planLines(json: unknown): string[] {
  const task = (json ?? {}) as Record<string, unknown>;
  const context = (task['context'] ?? {}) as Record<string, unknown>;
  const plan = (context['fix_strategy'] ?? task) as Record<string, unknown>;
  const lines: string[] = [];
  if (typeof task['title'] === 'string') lines.push(task['title']);
  if (typeof plan['strategy'] === 'string')
    lines.push(
      `strategy: ${plan['strategy']}${plan['strategy_reason'] ? ` (${String(plan['strategy_reason'])})` : ''}`,
    );
  if (typeof plan['approach'] === 'string') lines.push(`approach: ${plan['approach']}`);
  if (typeof plan['confidence_score'] === 'number')
    lines.push(`confidence: ${Math.round(plan['confidence_score'] * 100)}%`);
  lines.push(
    ...list('root causes', plan['root_causes']),
    ...list('modification points', plan['modification_points']),
    ...list('affected tests', plan['affected_tests']),
  );
  return lines.length > 0 ? lines : JSON.stringify(json, null, 2).split('\n');
}

async function diffLines(repo: string, sha: string): Promise<string[]> {
  try {
    const { stdout } = await run('git', ['show', '--stat', '--format=%h %s%n%an, %ar', sha], {
      cwd: repo,
      maxBuffer: 4 * 1024 * 1024,
    });
    return stdout.replace(/\n+$/, '').split('\n');
  } catch (error) {
    return [
      `git show ${sha} failed: ${((error as { stderr?: string }).stderr ?? String(error)).trim().split('\n')[0]}`,
    ];
  }
}

/**
 * Reads what there is to know about one iteration: its analysis (.process/iteration-N-analysis.md),
 * its fix plan (.task/IMPL-fix-N.json) and the files its commit changed (`git show --stat`).
 * A missing file is said as such; nothing here throws for a file that is not there yet.
 */
export async function loadIterationDetail(source: DetailSource): Promise<DetailLine[]> {
  const n = source.iteration;
  const analysisPath = join(source.sessionDir, source.entry?.analysis_file ?? `.process/iteration-${n}-analysis.md`);
  const taskPath = join(source.sessionDir, '.task', `${source.entry?.fix_task ?? `IMPL-fix-${n}`}.json`);
  const lines: DetailLine[] = [];

  const analysis = await readText(analysisPath).catch((e: Error) => `cannot read: ${e.message}`);
  lines.push(
    ...section(
      `Analysis · ${analysisPath.slice(source.sessionDir.length + 1)}`,
      analysis === null ? ['(not written yet)'] : analysis.replace(/\n+$/, '').split('\n'),
    ),
  );

  const taskText = await readText(taskPath).catch((e: Error) => `cannot read: ${e.message}`);
  let plan: string[];
  if (taskText === null) plan = ['(not written yet)'];
  else {
    try {
      plan = planLines(JSON.parse(taskText));
    } catch {
      plan = ['(not valid JSON yet: the file may be half-written)'];
    }
  }
  lines.push(...section(`Fix plan · ${taskPath.slice(source.sessionDir.length + 1)}`, plan));

  const sha = source.entry?.commit;
  if (!sha) lines.push(...section('Commit', ['(no fix commit for this iteration)']));
  else if (!source.repo) lines.push(...section(`Commit ${sha.slice(0, 7)}`, ['(repository unknown)']));
  else lines.push(...section(`Commit ${sha.slice(0, 7)}`, await diffLines(source.repo, sha)));
  if (source.entry?.rollback_commit)
    lines.push(...section('Rolled back', [`by ${source.entry.rollback_commit.slice(0, 7)}`]));
  return lines;
}
