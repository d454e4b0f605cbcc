import type { ReportFormat } from './parse-outcome.js';

// How much of a document detection looks at: report headers come first, and big reports must not cost a full scan.
const HEAD = 64 * 1024;

/** Guesses a report's format from its content, or null when it is none fixcycle reads. */
export function detectReportFormat(text: string): ReportFormat | null {
  const head = text.slice(0, HEAD).replace(/^\uFEFF/, '');
  const start = head.trimStart();
  if (start.startsWith('<')) return /<testsuites?[\s>/]/.test(head) ? 'junit' : null;
  if (isGoEventStream(head)) return 'go-json';
  if (/^\{\s*"type"\s*:\s*"(?:suite|test)"\s*,\s*"(?:event|name)"\s*:/m.test(head)) return 'libtest-json';
  if (start.startsWith('{')) return jsonFormat(head);
  if (isUvuOutput(head)) return 'uvu';
  // node-tap wraps each test file in a subtest named for the file.
  if (/^# Subtest: \S+\.[cm]?[jt]sx?\s*\n {4}\S/m.test(head)) return 'node-tap';
  if (/^(TAP version \d+|\s*(not )?ok\b|\d+\.\.\d+|\s*# Subtest:)/m.test(head)) return 'tap';
  return null;
}

/** uvu's closing Total/Passed lines, or a suite's marks line beside a FAIL block (colours removed). */
function isUvuOutput(head: string): boolean {
  // eslint-disable-next-line no-control-regex
  const plain = head.includes('\u001b') ? head.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '') : head;
  return (
    /^\s*Total:\s+\d+\s*\n\s*Passed:\s+\d+/m.test(plain) ||
    (/[•✘]\s+\(\d+ \/ \d+\)\s*$/m.test(plain) && /^\s*FAIL\s/m.test(plain))
  );
}

function jsonFormat(head: string): ReportFormat | null {
  const resultsAt = head.indexOf('"testResults"');
  // Top-level keys before the per-file results tell jest from vitest (jest has more bookkeeping).
  const header = resultsAt >= 0 ? head.slice(0, resultsAt) : head;
  if (resultsAt >= 0 || header.includes('"numTotalTests"')) {
    return /"(numRuntimeErrorTestSuites|openHandles|wasInterrupted)"/.test(header) ? 'jest-json' : 'vitest-json';
  }
  if (/^\s*\{\s*"stats"\s*:/.test(head) || (head.includes('"stats"') && head.includes('"passes"'))) return 'mocha-json';
  // pytest-json-report: `tests[]` of node ids and `collectors[]`, or only pytest's `summary` (--json-report-summary).
  if (
    head.includes('"nodeid"') ||
    head.includes('"collectors"') ||
    /"summary"\s*:\s*\{[^{}]*"collected"\s*:/.test(head)
  )
    return 'pytest-json';
  return null;
}

/** `go test -json` writes one event object a line; plain lines (build failures) may come first. */
function isGoEventStream(head: string): boolean {
  const lines = head.split('\n', 50);
  return lines.some((line) => line.startsWith('{') && /"Action"\s*:\s*"/.test(line) && isJsonLine(line));
}

function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
