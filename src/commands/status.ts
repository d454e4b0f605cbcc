import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Repo } from '../engine/git.js';
import { sessionPaths } from '../engine/session/paths.js';
import { readIterationState } from '../engine/session/state-file.js';
import { findLatestSession } from '../engine/session/session-files.js';
import type { TestResults } from '../engine/types.js';
import type { Output } from './output.js';
import { sessionsInProgress, type ListedSession } from './session-list.js';

const listedLine = (other: ListedSession): string =>
  `  ${other.id}  ${other.running ? 'running' : other.status}${other.branch ? `  on ${other.branch}` : ''}${other.note ? `  ${other.note}` : ''}`;

/** `fixcycle status`: the latest (or given) session in one screen, or as JSON. */
export async function runStatusCommand(
  cwd: string,
  options: { session?: string; json?: boolean },
  out: Output,
): Promise<number> {
  const repo = await Repo.open(cwd);
  const id = options.session ?? (await findLatestSession(repo.root));
  if (!id) {
    // No loop has run yet, but a gen session (planned, or still generating) may be at work in its worktree.
    const sessions = await sessionsInProgress(repo.root);
    if (sessions.length === 0) {
      out.stderr('fixcycle: no session in this repository yet: start one with `fixcycle run`');
      return 1;
    }
    out.stdout(
      options.json
        ? JSON.stringify({ sessions })
        : ['no fix loop has run in this repository yet; sessions at work:', ...sessions.map(listedLine)].join('\n'),
    );
    return 0;
  }
  const paths = sessionPaths(repo.root, id);
  const read = await readIterationState(paths.iterationState);
  if (!read.ok) {
    out.stderr(`fixcycle: ${read.error}`);
    return 2;
  }
  const state = read.state;
  const results = (await readFile(paths.testResults, 'utf8')
    .then(JSON.parse)
    .catch(() => null)) as TestResults | null;
  // Every session at work in the repository (two loops can run at once, each in its own worktree).
  const sessions = options.session ? [] : await sessionsInProgress(repo.root);
  if (options.json) {
    out.stdout(
      JSON.stringify({
        ...state,
        session_dir: paths.dir,
        pass_rate: results?.pass_rate ?? null,
        test_results: results,
        ...(options.session ? {} : { sessions }),
      }),
    );
    return 0;
  }
  const lines = [
    `session     ${state.session_id}  (${paths.dir})`,
    `status      ${state.status}  next: ${state.next_action}`,
    `iteration   ${state.current_iteration} of ${state.max_iterations}  strategy: ${state.selected_strategy}${state.strategy_reason ? ` — ${state.strategy_reason}` : ''}`,
    `pass rate   ${results ? `${results.pass_rate}% (${results.passed}/${results.total}, ${results.failed} failing)` : 'not measured yet'}`,
  ];
  if (state.stuck_tests.length) lines.push(`stuck       ${state.stuck_tests.join(', ')}`);
  if (state.outcome_reason) lines.push(`why         ${state.outcome_reason}`);
  if (state.worktree)
    lines.push(
      `worktree    ${state.worktree.branch}${existsSync(state.worktree.dir) ? `  (${state.worktree.dir})` : ''}${state.worktree.handback ? `  fixes ${state.worktree.handback.status}${state.worktree.handback.command && state.worktree.handback.status !== 'applied' ? `: ${state.worktree.handback.command}` : ''}` : ''}`,
    );
  for (const it of state.iterations) {
    lines.push(
      `  #${it.iteration} ${(it.strategy ?? '').padEnd(12)} ${it.pass_rate_before ?? '?'}% → ${it.pass_rate ?? '?'}%  ${it.result ?? ''}${it.commit ? `  ${it.commit.slice(0, 7)}` : ''}`,
    );
  }
  if (sessions.length > 1 || (sessions.length === 1 && sessions[0]!.id !== id)) {
    lines.push('', 'sessions at work in this repository:');
    for (const other of sessions) lines.push(listedLine(other));
  }
  out.stdout(lines.join('\n'));
  return 0;
}
