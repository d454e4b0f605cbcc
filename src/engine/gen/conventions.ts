import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { listProjectFiles } from '../affected/list-files.js';
import { isTestFileProper, isTestSide } from './source-files.js';

/** How the project writes its tests, so generated tests look like its own. */
export interface TestConventions {
  test_file_count: number;
  /** Folders holding tests, most tests first. */
  locations: string[];
  /** `<name>.test.js beside the code`, `test/<name>.test.js`, `tests/test_<name>.py`... */
  naming: string;
  assertion_style: string;
  module_system: 'esm' | 'commonjs' | 'n/a';
  helpers: string[];
  representative: { file: string; content: string } | null;
}

const STYLES: [RegExp, string][] = [
  [
    /from ['"]node:assert|require\(['"]node:assert|from ['"]assert/,
    'node:assert (assert.equal, assert.deepStrictEqual, assert.throws)',
  ],
  [/from ['"]vitest['"]/, 'vitest expect (expect(x).toBe(y))'],
  [/from ['"]@jest\/globals['"]|\bexpect\(/, 'expect(x).toBe(y) (jest style)'],
  [/from ['"]chai['"]|require\(['"]chai['"]\)/, 'chai (expect(x).to.equal(y))'],
  [/\bt\.(equal|deepEqual|ok)\(/, 'tape t.equal / t.deepEqual, ended with t.end()'],
  [/^\s*assert\s/m, 'plain assert statements (pytest)'],
  [/\bt\.(Errorf|Fatalf)\(/, 'go testing t.Errorf / t.Fatalf'],
];

function mostCommon(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([v]) => v);
}

function namingOf(files: string[]): string {
  const names = files.map((f) => f.slice(f.lastIndexOf('/') + 1));
  const kinds = mostCommon(
    names.map((n) =>
      /\.test\.[cm]?[jt]sx?$/.test(n)
        ? '<name>.test' + n.slice(n.lastIndexOf('.'))
        : /\.spec\./.test(n)
          ? '<name>.spec' + n.slice(n.lastIndexOf('.'))
          : n.startsWith('test_')
            ? 'test_<name>.py'
            : n.endsWith('_test.go')
              ? '<name>_test.go'
              : n.endsWith('_test.py')
                ? '<name>_test.py'
                : '<name>' + n.slice(n.lastIndexOf('.')),
    ),
  );
  return kinds[0] ?? 'unknown';
}

/**
 * Reads the project's test conventions from its test files: where they live, how they are named, how they
 * assert, shared helpers, and one representative test (`prefer`: one that already tests the changed code).
 */
export async function readConventions(root: string, prefer: string[] = []): Promise<TestConventions> {
  const files = await listProjectFiles(root);
  const tests = files.filter(isTestFileProper).filter((f) => !f.startsWith('.workflow/'));
  const helpers = files
    .filter((f) => isTestSide(f) && !isTestFileProper(f) && /(^|\/)(helpers?|support|utils|setup|conftest)/.test(f))
    .slice(0, 10);
  const locations = mostCommon(tests.map((f) => dirname(f))).slice(0, 5);
  const texts = await Promise.all(
    tests.slice(0, 50).map(async (f) => ({ file: f, text: await readFile(join(root, f), 'utf8').catch(() => '') })),
  );
  const style =
    STYLES.find(([re]) => texts.some((t) => re.test(t.text)))?.[1] ??
    (tests.length ? 'unknown' : "no tests yet: use the runner's own assertions");
  // Module systems are a JS/TS matter: a Python or Go suite has none.
  const scripts = texts.filter((t) => /\.(m|c)?[jt]sx?$/.test(t.file));
  const esm = scripts.filter((t) => /^\s*import\s/m.test(t.text)).length;
  const cjs = scripts.filter((t) => /\brequire\(/.test(t.text)).length;
  const pick =
    prefer.find((f) => tests.includes(f)) ??
    [...texts].filter((t) => t.text.length > 80).sort((a, b) => a.text.length - b.text.length)[0]?.file ??
    tests[0];
  const content = pick
    ? (texts.find((t) => t.file === pick)?.text ?? (await readFile(join(root, pick), 'utf8').catch(() => '')))
    : '';
  return {
    test_file_count: tests.length,
    locations,
    naming: namingOf(tests),
    assertion_style: style,
    module_system: scripts.length === 0 ? 'n/a' : esm >= cjs ? 'esm' : 'commonjs',
    helpers,
    representative: pick ? { file: pick, content: content.slice(0, 4_000) } : null,
  };
}
