import { listCell, type TeamTask } from './tasks-csv.js';

export class CycleError extends Error {}

/** Finds one dependency cycle among `ids` (ids whose deps never resolved), as `A → B → A`. */
function findCycle(byId: ReadonlyMap<string, TeamTask>, ids: readonly string[]): string[] {
  const stuck = new Set(ids);
  let at = ids[0]!;
  const path: string[] = [];
  while (!path.includes(at)) {
    path.push(at);
    at = listCell(byId.get(at)!.deps).find((d) => stuck.has(d))!;
  }
  return [...path.slice(path.indexOf(at)), at];
}

/**
 * Kahn's topological sort with depth: wave 1 holds the tasks without deps, wave N those whose deps all sit in
 * earlier waves. A dependency on an unknown task, or a cycle (named), is refused.
 */
export function computeWaves(tasks: readonly TeamTask[]): Map<string, number> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  for (const t of tasks) {
    for (const d of listCell(t.deps))
      if (!byId.has(d))
        throw new CycleError(`task ${t.id} depends on ${d}, which is not in tasks.csv: fix its deps column`);
  }
  const wave = new Map<string, number>();
  let remaining = tasks.map((t) => t.id);
  for (let n = 1; remaining.length > 0; n++) {
    const ready = remaining.filter((id) => listCell(byId.get(id)!.deps).every((d) => (wave.get(d) ?? Infinity) < n));
    if (ready.length === 0)
      throw new CycleError(
        `the task dependencies form a cycle: ${findCycle(byId, remaining).join(' → ')}; remove one of these deps`,
      );
    for (const id of ready) wave.set(id, n);
    remaining = remaining.filter((id) => !wave.has(id));
  }
  return wave;
}

/** Sets each task's `wave` column from the sort. */
export function assignWaves(tasks: TeamTask[]): void {
  const waves = computeWaves(tasks);
  for (const t of tasks) t.wave = String(waves.get(t.id));
}
