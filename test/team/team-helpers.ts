import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, makeRepo, ROOT } from '../helpers/repo.js';
import { workflowDir } from '../../src/engine/session/paths.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { Mutex, type TeamContext } from '../../src/engine/team/team-context.js';
import type { TeamTask } from '../../src/engine/team/tasks-csv.js';

export const TEAM_AGENT = join(ROOT, 'test/fixtures/agents/team-agent.mjs');

/** teamlib on main, and a feature branch that adds code to two modules (src/text and src/math). */
export function teamRepo(options: { bug?: boolean; base?: Record<string, string> } = {}): string {
  const repo = makeRepo('projects-team/base', options.base);
  git(repo, 'switch', '-q', '-c', 'feature');
  cpSync(join(ROOT, 'test/fixtures/projects-team/feature'), repo, { recursive: true });
  // A real bug for the executor's fix cycle: median's even branch divides by 3.
  if (options.bug)
    writeFileSync(
      join(repo, 'src/math/stats.js'),
      readFileSync(join(repo, 'src/math/stats.js'), 'utf8').replace(
        '(sorted[mid - 1] + sorted[mid]) / 2',
        '(sorted[mid - 1] + sorted[mid]) / 3',
      ),
    );
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'add slug and stats');
  return repo;
}

export function agentDir(): string {
  return mkdtempSync(join(tmpdir(), 'fixcycle-team-agent-'));
}

export const teamAgentCmd = (dir: string, mode = 'standard', delayMs = 0) =>
  `${process.execPath} ${TEAM_AGENT} ${dir} ${mode} ${delayMs}`;

/** The calls the stand-in agent saw: start and end (ms), role, task ('-' for the fix loop's), GC round, the folder it ran in. */
export function calls(
  dir: string,
): { start: number; end: number; role: string; task: string; gc: string; cwd: string }[] {
  let text = '';
  try {
    text = readFileSync(join(dir, 'calls.log'), 'utf8');
  } catch {
    return [];
  }
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [start, end, role, task, gc, cwd] = l.split(' ');
      return { start: Number(start), end: Number(end), role: role!, task: task!, gc: gc!, cwd: cwd ?? '' };
    });
}

export function teamSession(repo: string): string {
  const root = join(workflowDir(repo), '.csv-wave');
  return join(root, readdirSync(root).filter((n) => n.startsWith('tst-'))[0]!);
}

/**
 * What team's judges read of a task's context, for a generator task (TESTGEN-001, L1) in `repo`: its runner as
 * fixcycle finds it, the changed lines, and the task's progress details collected into `said`.
 */
export async function judgeContext(
  repo: string,
  changed: { file: string; lines: number[] },
  said: string[],
): Promise<{ ctx: TeamContext; task: TeamTask }> {
  const ctx = {
    root: repo,
    runner: await resolveRunner(repo, {}),
    signal: new AbortController().signal,
    options: { testTimeoutMs: 120_000 },
    changed: [{ ...changed, hunks: [] }],
    emit: (e: { type: string; detail?: string }) => void (e.type === 'team-task' && said.push(e.detail ?? '')),
    files: new Mutex(),
  } as unknown as TeamContext;
  return { ctx, task: { id: 'TESTGEN-001', role: 'generator', layer: 'L1', wave: '2' } as TeamTask };
}
