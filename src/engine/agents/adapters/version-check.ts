/** How an installed CLI's version compares with the versions its adapter was checked against. */
export type VersionVerdict = { version: string; checked: string; within: boolean } | { version: undefined; checked: string; within: undefined };

/** The first `major.minor.patch` in a `--version` answer (`codex-cli 0.169.0`, `2.1.197 (Claude Code)`). */
export function versionIn(text: string): string | undefined {
  return /\b(\d+)\.(\d+)\.(\d+)\b/.exec(text)?.[0];
}

/**
 * Whether `output` (what `--version` printed) names a version inside `checked` (`0.169.x`: that major and
 * minor, any patch; `2.1.x`; or one exact version).
 */
export function checkVersion(output: string, checked: string): VersionVerdict {
  const version = versionIn(output);
  if (!version) return { version: undefined, checked, within: undefined };
  const want = checked.split('.');
  const have = version.split('.');
  const within = want.every((part, i) => part === 'x' || part === have[i]);
  return { version, checked, within };
}
