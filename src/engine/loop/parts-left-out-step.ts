import type { PartLeftOut } from '../decisions/parts-left-out.js';
import type { PartNotRun } from '../runners/runner.js';
import type { IterationState } from '../session/schema.js';
import type { LoopContext } from './context.js';

/** The parts of the test command this session leaves out because they cannot run here (state.parts_not_run). */
export function partsLeftOut(state: IterationState): PartLeftOut[] {
  return (state.parts_not_run as PartLeftOut[] | undefined) ?? [];
}

/**
 * A run found a part of the test command that cannot run here while the parts that ran failed for the code's own
 * reasons: the part is recorded in the state, said once with its own words, and left out of every later run.
 */
export function leaveOutParts(ctx: LoopContext, state: IterationState, found: readonly PartNotRun[]): void {
  const known = new Set(partsLeftOut(state).map((p) => p.name));
  const added = found.filter((p) => !known.has(p.name));
  if (added.length === 0) return;
  state.parts_not_run = [
    ...partsLeftOut(state),
    ...added.map(({ name, command, needs, inside }) => ({ name, command, needs, ...(inside ? { inside } : {}) })),
  ] satisfies PartLeftOut[];
  for (const part of added)
    ctx.emit({
      type: 'log',
      level: 'warn',
      message: part.inside
        ? `not counted: ${part.message.replace(', so no agent is asked', '')}\nfixcycle cannot leave a step inside the command out: it runs each time, and the tests that ran are what the session checks`
        : `left out of the later runs: ${part.message.replace(', so no agent is asked', '')}\nthe failures of the parts that ran are the agent's to fix`,
    });
  applyPartsLeftOut(ctx, state);
}

/** Makes the session's runner leave out the parts recorded in the state (also on a resumed session). */
export function applyPartsLeftOut(ctx: LoopContext, state: IterationState): void {
  const names = partsLeftOut(state).map((p) => p.name);
  if (names.length > 0 && ctx.runner.withoutParts) ctx.runner = ctx.runner.withoutParts(names);
}
