import { readFile, writeFile } from 'node:fs/promises';
import type { EngineEvent } from './events.js';
import type { WorkTreeStatus } from './git.js';
import type { PendingIsolation } from './isolation/session-isolation.js';
import type { LoopContext } from './loop/context.js';
import { startSuite, type StartedSuite, type SuiteRun } from './loop/suite-start.js';
import type { TestRun, TestRunner } from './runners/runner.js';

/** Nothing for the loop to do: every test passed, nothing failed around them, nothing was left out. */
function green(run: TestRun): boolean {
  return (
    run.exitCode === 0 &&
    !run.timedOut &&
    !run.noTestRan &&
    !run.partsNotRun?.length &&
    !run.result.truncated &&
    !run.result.stopped &&
    run.result.errors.length === 0 &&
    run.result.tests.every((test) => test.status !== 'failed')
  );
}

/** `value` with every path under `from` (a folder) named under `to` instead. */
export function movePaths<T>(value: T, from: string, to: string): T {
  const escaped = (path: string): string => JSON.stringify(path).slice(1, -1);
  const text = JSON.stringify(value)
    .replaceAll(`"${escaped(from)}"`, `"${escaped(to)}"`)
    .replaceAll(`${escaped(from)}/`, `${escaped(to)}/`);
  return JSON.parse(text) as T;
}

/**
 * A new isolated session's first run, in the user's own tree: it is their test command run as they would run it,
 * and fixcycle writes nothing there. A suite that passes (or a run where no test ran, which stops the loop)
 * while their files still hold the snapshot ends the session with no worktree made (the cost of `fixcycle run` on a green project is the command's own). Otherwise the
 * worktree is made and the loop moves there (`ctx.repo`, `ctx.runner`): the run counts as the worktree's own, its
 * paths renamed, when the files still hold the snapshot; a save during the run means it measured something else,
 * and it runs again in the worktree.
 */
export async function firstRunInPlace(
  ctx: LoopContext,
  run: SuiteRun,
  isolation: PendingIsolation,
  runnerFor: (root: string) => Promise<TestRunner>,
  say: (event: EngineEvent) => void,
): Promise<StartedSuite> {
  const userRoot = ctx.repo.root;
  const probe = await startSuite(ctx, run);
  let moved: { tree: () => Promise<WorkTreeStatus> } | undefined;
  // Asked as soon as the commands exited, beside the reading of their report.
  const stillSnapshot = probe.exited.then(() => isolation.unchanged(probe.tree())).finally(() => isolation.release());
  stillSnapshot.catch(() => undefined);
  const ran = probe.testRun.catch(async (error: unknown) => {
    await stillSnapshot.catch(() => undefined);
    throw error;
  });
  const testRun = ran.then(async (result) => {
    const unchanged = await stillSnapshot;
    if (run.signal?.aborted) return result;
    // Nothing for an agent: the suite passed, or no test ran for a cause outside the code (the loop stops there).
    if ((green(result) || result.noTestRan) && unchanged) return result;
    const made = await isolation.materialize();
    ctx.runner = await runnerFor(made.work.root);
    ctx.repo = made.work;
    for (const note of made.notes) say(note);
    if (unchanged) {
      const log = ctx.session.paths.testOutput;
      const text = await readFile(log, 'utf8').catch(() => null);
      if (text !== null) await writeFile(log, text.replaceAll(`${userRoot}/`, `${made.work.root}/`));
      let tree: Promise<WorkTreeStatus> | undefined;
      moved = { tree: () => (tree ??= ctx.repo.workTreeStatus()) };
      return movePaths(result, userRoot, made.work.root);
    }
    say({
      type: 'log',
      level: 'info',
      message:
        'your files changed while the first run ran in your tree: it runs again in the worktree, on the snapshot',
    });
    const again = await startSuite(ctx, { ...run, label: `${run.label} (in the worktree)` });
    moved = { tree: () => again.tree() };
    return again.testRun;
  });
  // Awaited by whoever reads the run; until then a failure must not count as unhandled.
  testRun.catch(() => undefined);
  return {
    testRun,
    saved: probe.saved,
    printed: probe.printed,
    exited: probe.exited,
    tree: () => (moved ? moved.tree() : probe.tree()),
  };
}
