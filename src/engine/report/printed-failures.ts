// Where runners start telling about their failures: mocha's `N failing`, pytest's FAILURES banner, jest's
// first `●`, go's `--- FAIL:`, cargo's `failures:`, a TAP `not ok`, uvu's `FAIL "name"`.
const FAILURE_SECTION = [
  /^\s*\d+ failing\b/,
  /^=+ FAILURES =+$/,
  /^\s*●\s/,
  /^\s*--- FAIL:/,
  /^failures:$/,
  /^\s*not ok\b/,
  /^\s*FAIL\s+.*"/,
];

/**
 * What a runner printed about its failures, for the failures known only from its summary line: its failure
 * section when there is one, else the output's last lines; never a JSON document it printed (mocha's JSON
 * reporter before mocha 9) nor a coverage table (nyc, c8), which say nothing about why a test failed.
 */
export function printedFailures(output: string, maxLines = 40): string {
  const lines = dropNoise(
    output
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
      .replace(/\r/g, '')
      .split('\n'),
  );
  for (const pattern of FAILURE_SECTION) {
    const start =
      pattern === FAILURE_SECTION[0]
        ? lines.findLastIndex((line) => pattern.test(line))
        : lines.findIndex((line) => pattern.test(line));
    if (start !== -1)
      return lines
        .slice(start, start + maxLines)
        .join('\n')
        .trim();
  }
  return lines.slice(-maxLines).join('\n').trim();
}

function dropNoise(lines: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^[{[]\s*$/.test(line)) {
      // A pretty-printed JSON document runs to the first unindented closing bracket.
      const end = lines.findIndex((other, j) => j > i && /^[}\]],?\s*$/.test(other));
      if (end !== -1) {
        i = end;
        continue;
      }
    }
    if (isCoverageLine(line)) continue;
    kept.push(line);
  }
  return kept;
}

function isCoverageLine(line: string): boolean {
  return (
    /^-+\|[-|]+$/.test(line.trim()) ||
    /\|\s*% (Stmts|Branch|Funcs|Lines)/.test(line) ||
    /^[^|]*(\|[^|]*){4,}$/.test(line) ||
    /^=+ Coverage summary =+$/.test(line.trim()) ||
    /^(Statements|Branches|Functions|Lines)\s+:\s+[\d.]+%/.test(line.trim())
  );
}
