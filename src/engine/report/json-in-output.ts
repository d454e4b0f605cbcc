import { detectReportFormat } from './detect-format.js';
import type { ReportFormat } from './parse-outcome.js';

/**
 * A JSON report of `format` that a runner printed into its output (mocha before 9 prints its JSON reporter's
 * report to stdout, between other lines such as nyc's coverage table), or null when there is none. The last
 * one wins: a runner that prints several (a watch run) ends with the newest.
 */
export function findJsonReport(output: string, format: ReportFormat): string | null {
  const lines = output.replace(/\r/g, '').split('\n');
  let found: string | null = null;
  for (let start = 0; start < lines.length; start++) {
    const first = lines[start]!;
    if (!first.startsWith('{')) continue;
    const end = documentEnd(lines, start);
    if (end === -1) continue;
    const text = lines.slice(start, end + 1).join('\n');
    if (detectReportFormat(text) === format && isJson(text)) {
      found = text;
      start = end;
    }
  }
  return found;
}

/** The line that closes a document opened at `start`: the same line when it is one line of JSON, else the first unindented `}`. */
function documentEnd(lines: string[], start: number): number {
  if (lines[start]!.trimEnd().endsWith('}') && isJson(lines[start]!)) return start;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^\}\s*$/.test(lines[i]!)) return i;
  }
  return -1;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
