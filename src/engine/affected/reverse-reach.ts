/**
 * Every file that loads one of `starts`, directly or through other files, `starts` included:
 * a breadth-first walk over the graph's edges turned around. `dependencies` maps a file to the
 * files it loads.
 */
export function findDependents(dependencies: Map<string, string[]>, starts: Iterable<string>): Set<string> {
  const importers = new Map<string, string[]>();
  for (const [file, targets] of dependencies) {
    for (const target of targets) {
      const list = importers.get(target);
      if (list) list.push(file);
      else importers.set(target, [file]);
    }
  }
  const reached = new Set<string>(starts);
  const queue = [...reached];
  for (let i = 0; i < queue.length; i++) {
    for (const importer of importers.get(queue[i]!) ?? []) {
      if (reached.has(importer)) continue;
      reached.add(importer);
      queue.push(importer);
    }
  }
  return reached;
}
