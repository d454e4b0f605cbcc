/**
 * Doubted tests (or files of them), widest first: most lines beyond `covered`, ties in their order. Each adds
 * coverage when it runs a line neither `covered` nor a wider one runs, so of two doubted tests running the same
 * lines (a call that logs its result beside the real test of that call) only the wider counts as adding any.
 */
export function widestFirst<T>(
  doubted: readonly { t: T; mine: ReadonlySet<string> }[],
  covered: ReadonlySet<string>,
): { t: T; addedCoverage: boolean }[] {
  const order = doubted
    .map((d, i) => ({ d, i, n: [...d.mine].filter((k) => !covered.has(k)).length }))
    .sort((a, b) => b.n - a.n || a.i - b.i);
  const seen = new Set<string>();
  const added = new Map<number, boolean>();
  for (const { d, i } of order) {
    const fresh = [...d.mine].filter((k) => !covered.has(k) && !seen.has(k));
    added.set(i, fresh.length > 0);
    for (const k of fresh) seen.add(k);
  }
  return doubted.map((d, i) => ({ t: d.t, addedCoverage: added.get(i)! }));
}
