import { localize, type Localization } from '../localize/index.js';
import { evidenceUsed } from '../localize/format.js';
import type { TestResults } from '../types.js';
import type { LoopContext } from './context.js';
import { recordTestArtifacts } from './test-artifacts.js';

/**
 * Ranks the suspects of an iteration's failures before the analysis agent is asked, and records them in the
 * iteration's failures JSON and as a `suspects` event. Undefined when turned off (--no-localize), when nothing
 * failed, or when localization itself failed (logged: the analysis goes on without suspects).
 */
export async function localizeFailures(
  ctx: LoopContext,
  iteration: number,
  results: TestResults,
  signal?: AbortSignal,
): Promise<Localization | undefined> {
  const errors = results.errors.filter((e) => !e.notHere);
  if (ctx.options.localize === false || (results.failures.length === 0 && errors.length === 0)) return undefined;
  try {
    const { lines: _lines, ...found } = await localize({
      root: ctx.repo.root,
      runner: ctx.runner,
      failures: results.failures,
      errors,
      ...(ctx.startedFrom ? { startedFrom: ctx.startedFrom } : {}),
      timeoutMs: ctx.options.testTimeoutMs,
      signal,
    });
    // Its coverage run is a test run: what it leaves in the tree (node-tap 18's .tap/) is no part of the fix.
    await recordTestArtifacts(ctx);
    if (signal?.aborted) return undefined;
    await ctx.session.writeFailures(iteration, { ...results, localization: found });
    ctx.emit({ type: 'suspects', iteration, localization: found });
    const top = found.suspects[0];
    ctx.emit({
      type: 'log',
      level: 'info',
      message: `iteration ${iteration}: ${found.suspects.length} suspect(s)${top ? `, first ${top.file}:${top.function}:${top.startLine}-${top.endLine}` : ''} (evidence: ${evidenceUsed(found)}; ${(found.durationMs / 1000).toFixed(1)} s)`,
    });
    return found;
  } catch (error) {
    ctx.emit({
      type: 'log',
      level: 'warn',
      message: `iteration ${iteration}: localization failed, the analysis goes on without suspects (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    });
    return undefined;
  }
}
