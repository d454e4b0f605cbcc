import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { writeTextAtomic } from '../session/atomic.js';

/** The columns of tasks.csv, exactly as the design's master state has them, in its order. */
export const TASK_COLUMNS = [
  'id',
  'title',
  'description',
  'role',
  'layer',
  'coverage_target',
  'deps',
  'context_from',
  'exec_mode',
  'wave',
  'status',
  'findings',
  'pass_rate',
  'coverage_achieved',
  'test_files',
  'error',
] as const;
export type TaskColumn = (typeof TASK_COLUMNS)[number];

export type TeamRole = 'strategist' | 'generator' | 'executor' | 'analyst';
export type TaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped';

/** One row of tasks.csv; every cell is text, as the file holds it. */
export type TeamTask = Record<TaskColumn, string> & { role: TeamRole; status: TaskStatus };

export class TasksCsvError extends Error {}

/** Semicolon-separated lists (`deps`, `context_from`, `test_files`). */
export function listCell(cell: string): string[] {
  return cell
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function toCsv(rows: readonly Record<string, string>[], columns: readonly string[] = TASK_COLUMNS): string {
  return stringify(
    rows.map((r) => columns.map((c) => r[c] ?? '')),
    { header: true, columns: [...columns], quoted: true, record_delimiter: '\n' },
  );
}

/** Parses tasks.csv; a file without the design's columns is refused with the line and what is wrong. */
export function fromCsv(text: string, source = 'tasks.csv'): TeamTask[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, relax_column_count: false }) as Record<
      string,
      string
    >[];
  } catch (error) {
    throw new TasksCsvError(
      `${source} is not valid CSV (${(error as Error).message}): fix or delete the file and start a new session`,
    );
  }
  const header = text.split('\n', 1)[0] ?? '';
  for (const column of TASK_COLUMNS) {
    if (rows.length > 0 && !(column in rows[0]!))
      throw new TasksCsvError(
        `${source} has no "${column}" column (header: ${header.slice(0, 80)}): it is not a fixcycle team tasks file`,
      );
  }
  return rows.map((r) => Object.fromEntries(TASK_COLUMNS.map((c) => [c, r[c] ?? ''])) as TeamTask);
}

export async function readTasks(path: string): Promise<TeamTask[]> {
  return fromCsv(await readFile(path, 'utf8'), path);
}

export async function writeTasks(
  path: string,
  tasks: readonly TeamTask[],
  extra: readonly string[] = [],
): Promise<void> {
  await writeTextAtomic(path, toCsv(tasks, [...TASK_COLUMNS, ...extra]));
}
