// A YAML block that holds only a duration, as node:test writes after every test point:
//     ok 1 - name
//       ---
//       duration_ms: 0.31
//       ...
const DURATION_ONLY_BLOCK = /^( *)((?:not )?ok\b[^#\n]*)\n\1 {2}---\n\1 {2}duration_ms: ([\d.]+)\n\1 {2}\.\.\.\n/gm;

/**
 * Rewrites duration-only YAML blocks as TAP `# time=` directives on their test point, which tap-parser reads
 * into the same number. A YAML parse per test costs about 70% of reading a 50,000-test node:test stream;
 * points that already carry a directive (`#`) and blocks with anything else in them are left as they are.
 */
export function inlineDurations(text: string): string {
  return text.includes('duration_ms') ? text.replace(DURATION_ONLY_BLOCK, '$1$2 # time=$3ms\n') : text;
}
