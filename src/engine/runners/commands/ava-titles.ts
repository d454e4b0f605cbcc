import { execFileSync } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import type { NormalizedResult, TestCase } from '../../types.js';
import { isJsTestFile } from '../../affected/test-file-patterns.js';

// ava joins a file's label and the test's title with ` › ` (dimmed when colours are on) when it runs several files.
const SEPARATOR = / \u203a /;
const EXTENSION = /\.(?:[cm]?[jt]sx?)$/;

/** ava's label for a file (lib/reporters/prefix-title.js): folders without `__tests__`, the name without `.test.`/`.spec.`/`test-` and extension. */
export function avaLabel(file: string, base: string): string[] {
  const parts = (file.startsWith(base) ? file.slice(base.length) : file)
    .split('/')
    .filter((p) => p !== '' && p !== '__tests__');
  const name = parts.pop() ?? '';
  return [
    ...parts,
    name
      .replace(/\.spec\./, '.')
      .replace(/\.test\./, '.')
      .replace(/test-/, '')
      .replace(EXTENSION, ''),
  ];
}

/** The folder prefix ava strips from every label: the common path prefix of the files it ran (one file: its folder). */
function commonBase(files: readonly string[]): string {
  const dirs = files.map((f) => f.split('/').slice(0, -1));
  const first = dirs[0] ?? [];
  let n = 0;
  while (n < first.length && dirs.every((d) => d[n] === first[n])) n++;
  return n === 0 ? '' : `${first.slice(0, n).join('/')}/`;
}

/** The project's JS test files by the usual conventions, for a full run whose files ava chose itself. */
function projectTestFiles(cwd: string): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.split('\0').filter((f) => f !== '' && !f.includes('node_modules/') && isJsTestFile(f));
  } catch {
    return [];
  }
}

/** Label -> files, for every depth of base folder ava may have stripped (a full run: the files are not known exactly). */
function labelsAt(files: readonly string[], exact: boolean): Map<string, string[]>[] {
  if (exact) {
    const base = commonBase(files);
    return [new Map(files.map((f) => [avaLabel(f, base).join('\u0000'), [f]]))];
  }
  const deepest = Math.max(0, ...files.map((f) => f.split('/').length - 1));
  const maps: Map<string, string[]>[] = [];
  for (let depth = 0; depth <= deepest; depth++) {
    const map = new Map<string, string[]>();
    for (const f of files) {
      const parts = f.split('/');
      if (parts.length - 1 < depth) continue;
      const key = avaLabel(parts.slice(depth).join('/'), '').join('\u0000');
      map.set(key, [...(map.get(key) ?? []), f]);
    }
    maps.push(map);
  }
  return maps;
}

/** The file a prefixed title names, and the title itself: the longest leading label that names exactly one file. */
function split(name: string, labels: Map<string, string[]>): { file: string; title: string[] } | null {
  const parts = stripVTControlCharacters(name).split(SEPARATOR);
  for (let k = parts.length - 1; k >= 1; k--) {
    const owners = labels.get(parts.slice(0, k).join('\u0000'));
    if (owners?.length === 1) return { file: owners[0]!, title: parts.slice(k) };
  }
  return null;
}

function withFile(test: TestCase, file: string, title: string): TestCase {
  return { ...test, file, name: title, id: `${file}::${title}` };
}

/**
 * ava names a test by its title alone when it runs one file, and `<file label> › <title>` when it runs several
 * (the label is the file's path without the common folder, `.test`/`.spec`/`test-` and the extension). Either way
 * the test becomes `<file>::<title>`, the identity other runners give, so a test keeps its id whether it ran with
 * its file alone or with the suite, and gates can tell which file it belongs to.
 */
export function avaFileIdentity(
  result: NormalizedResult,
  files: readonly string[] | null,
  cwd: string,
): NormalizedResult {
  const prefixed = result.tests.some((t) => SEPARATOR.test(stripVTControlCharacters(t.name)));
  if (!prefixed) {
    // One file ran: the one given, or in a full run the project's only test file.
    const only = files ?? (result.tests.length > 0 ? projectTestFiles(cwd) : []);
    if (only.length !== 1) return result;
    return { ...result, tests: result.tests.map((t) => withFile(t, only[0]!, t.name)) };
  }
  const exact = files !== null && files.length > 1;
  const maps = labelsAt(exact ? files : projectTestFiles(cwd), exact);
  // The base folder is the same for every test of a run: take the depth that places the most of them.
  let best: Map<string, string[]> | undefined;
  let placed = -1;
  for (const map of maps) {
    const n = result.tests.filter((t) => split(t.name, map)).length;
    if (n > placed) [best, placed] = [map, n];
  }
  if (!best || placed <= 0) return result;
  const labels = best;
  return {
    ...result,
    tests: result.tests.map((t) => {
      const found = split(t.name, labels);
      return found ? withFile(t, found.file, found.title.join(' › ')) : t;
    }),
  };
}
