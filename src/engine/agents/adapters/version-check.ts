/** How an installed CLI's version compares with the releases its adapter was checked against. */
export type VersionVerdict =
  | { version: string; checked: readonly string[]; within: boolean }
  | { version: undefined; checked: readonly string[]; within: undefined };

/** The first `major.minor.patch` in a `--version` answer (`codex-cli 0.169.0`, `2.1.197 (Claude Code)`). */
export function versionIn(text: string): string | undefined {
  return /\b(\d+)\.(\d+)\.(\d+)\b/.exec(text)?.[0];
}

/** Orders `1.2.10` after `1.2.9`. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether `output` (what `--version` printed) names one of the `checked` releases exactly. */
export function checkVersion(output: string, checked: readonly string[]): VersionVerdict {
  const version = versionIn(output);
  if (!version) return { version: undefined, checked, within: undefined };
  return { version, checked, within: checked.includes(version) };
}

/** `checked with 2.1.197, 2.1.331`, or `not checked: 2.1.400 (newest checked 2.1.331)`. */
export function describeVerdict(verdict: VersionVerdict): string {
  const sorted = [...verdict.checked].sort(compareVersions);
  if (verdict.within !== false) return sorted.length ? `checked with ${sorted.join(', ')}` : 'no release checked';
  return `not checked: ${verdict.version} (${sorted.length ? `newest checked ${sorted.at(-1)!}` : 'no release checked'})`;
}
