import type { CoverageMap, FileCoverageData } from 'istanbul-lib-coverage';
import { isAbsolute } from 'node:path';
import { relativeToRoot } from './paths.js';

/** One file's coverage as gen keeps it: hits per executable line, and each branch's line and whether it ran. */
export interface FileLines {
  lines: Record<number, number>;
  /** Each branch: its line, its column, and whether it ran. */
  branches: [line: number, covered: boolean, column?: number][];
}

/** Coverage of a run, by repository-relative file. */
export type CoverageData = Record<string, FileLines>;

/** Turns an istanbul coverage map into per-line hits and per-branch outcomes. */
export function fromCoverageMap(map: CoverageMap, root: string): CoverageData {
  const out: CoverageData = {};
  for (const path of map.files()) {
    const fc = map.fileCoverageFor(path);
    const rel = isAbsolute(path) ? relativeToRoot(root, path).split('\\').join('/') : path;
    const data = fc.data;
    const branches: [number, boolean, number][] = [];
    for (const [id, branch] of Object.entries(data.branchMap)) {
      const counts = data.b[id] ?? [];
      branch.locations.forEach((loc, i) => branches.push([loc.start.line ?? branch.loc.start.line, (counts[i] ?? 0) > 0, loc.start.column ?? 0]));
    }
    out[rel] = { lines: withOneLineFunctions(fc.getLineCoverage(), data), branches };
  }
  return out;
}

/**
 * A line counts the calls of a function that starts and ends on it (`export const isObject = o => ...`):
 * v8-to-istanbul counts a line by the ranges that hold it whole, and a one-line function's range starts
 * mid-line, so its line has the count of the code around it. In a take that says only what one test ran
 * (the module's code counted 0), the function would never have run.
 */
function withOneLineFunctions(lines: Record<number, number>, data: FileCoverageData): Record<number, number> {
  const out = { ...lines };
  for (const [id, fn] of Object.entries(data.fnMap)) {
    const calls = data.f[id] ?? 0;
    const line = fn.loc.start.line;
    if (calls > 0 && line !== null && line === fn.loc.end.line) out[line] = Math.max(out[line] ?? 0, calls);
  }
  return out;
}

/** Two runs' coverage as one: a line's highest hit count, a branch covered when either run took it. */
export function mergeCoverage(a: CoverageData, b: CoverageData): CoverageData {
  const out: CoverageData = { ...a };
  for (const [file, f] of Object.entries(b)) {
    const mine = out[file];
    if (!mine) {
      out[file] = f;
      continue;
    }
    const lines = { ...mine.lines };
    for (const [line, hits] of Object.entries(f.lines)) lines[Number(line)] = Math.max(lines[Number(line)] ?? 0, hits);
    const branches = new Map(mine.branches.map((br) => [`${br[0]}:${br[2] ?? 0}`, br]));
    for (const br of f.branches) {
      const key = `${br[0]}:${br[2] ?? 0}`;
      const seen = branches.get(key);
      branches.set(key, seen ? [br[0], seen[1] || br[1], br[2]] : br);
    }
    out[file] = { lines, branches: [...branches.values()] };
  }
  return out;
}

/** The lines and branches (of `only`, when given) a run executed, as `file:line` and `file:line:column:branch` keys. */
export function coveredKeys(data: CoverageData, only?: ReadonlySet<string>): Set<string> {
  const keys = new Set<string>();
  for (const [file, f] of Object.entries(data)) {
    if (only && !only.has(file)) continue;
    for (const [line, hits] of Object.entries(f.lines)) if (hits > 0) keys.add(`${file}:${line}`);
    for (const [line, covered, column] of f.branches) if (covered) keys.add(`${file}:${line}:${column ?? 0}:branch`);
  }
  return keys;
}

/** Coverage of the changed lines of one file: percentages (null when it has no executable changed line / branch). */
export interface ChangedCoverage {
  file: string;
  lines: number | null;
  branches: number | null;
  coveredLines: number;
  totalLines: number;
  coveredBranches: number;
  totalBranches: number;
  uncovered: number[];
}

const pct = (n: number, d: number): number | null => (d === 0 ? null : Math.round((n / d) * 1000) / 10);

/** How much of a file's changed lines (and the branches on them) the run executed. */
export function changedCoverage(data: CoverageData, file: string, changedLines: readonly number[]): ChangedCoverage {
  const f = data[file];
  const changed = new Set(changedLines);
  if (!f) return { file, lines: changedLines.length ? 0 : null, branches: null, coveredLines: 0, totalLines: changedLines.length, coveredBranches: 0, totalBranches: 0, uncovered: [...changedLines] };
  const executable = Object.entries(f.lines).filter(([line]) => changed.has(Number(line)));
  const uncovered = executable.filter(([, hits]) => hits === 0).map(([line]) => Number(line));
  const branches = f.branches.filter(([line]) => changed.has(line));
  const coveredBranches = branches.filter(([, c]) => c).length;
  return {
    file,
    lines: pct(executable.length - uncovered.length, executable.length),
    branches: pct(coveredBranches, branches.length),
    coveredLines: executable.length - uncovered.length,
    totalLines: executable.length,
    coveredBranches,
    totalBranches: branches.length,
    uncovered,
  };
}

/** `12-15, 20` from [12, 13, 14, 15, 20]. */
export function lineRanges(lines: readonly number[]): string {
  const sorted = [...lines].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i]!;
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i]! + 1) i++;
    parts.push(start === sorted[i] ? `${start}` : `${start}-${sorted[i]}`);
  }
  return parts.join(', ');
}
