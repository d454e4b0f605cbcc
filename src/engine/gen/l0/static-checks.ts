import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ASSERTION,
  isTrivialAssertion,
  SELF_COMPARISONS,
  SKIP_MARKERS,
  TEST_FILE_SKIP_MARKERS,
  TRIVIAL_ASSERTIONS,
} from '../../guard/patterns.js';
import { isTestSide } from '../source-files.js';
import type { Finding } from './finding.js';
import { importChecker, importsOf } from './imports.js';
import { casesOf, languageOf, type CaseLanguage, type CaseSpan } from '../cases/index.js';
import { MORE_ASSERTIONS } from './assertions.js';

const PLACEHOLDERS: [RegExp, 'critical' | 'warning', string][] = [
  [/throw\s+new\s+\w*Error\(\s*['"`](not implemented|todo|unimplemented)/i, 'critical', 'throws "not implemented"'],
  [/\bnot implemented\b|\bunimplemented!?\(/i, 'critical', 'placeholder: "not implemented"'],
  [/\/\/\s*(TODO|FIXME)\b|#\s*(TODO|FIXME)\b/, 'warning', 'a TODO/FIXME left in'],
  [/^[ \t]*def [^\n]*:[ \t]*\n[ \t]+pass[ \t]*$/m, 'critical', 'a function whose body is only `pass`'],
];
const MOCK_IMPORT =
  /(^|\/)(__mocks__|mocks?|fixtures?|test-?helpers?)(\/|$)|^(vitest|jest|@jest\/globals|sinon|nock|testdouble)$/;
const SCRIPT = /\.(m|c)?[jt]sx?$/;

const derived = new Map<RegExp, RegExp>();
function variant(re: RegExp, flag: 'g' | 'm'): RegExp {
  let v = derived.get(re);
  if (!v) derived.set(re, (v = new RegExp(re.source, re.flags.includes(flag) ? re.flags : `${re.flags}${flag}`)));
  return v;
}

/** 1-based lines where `re` matches; a pattern spanning lines (`\n` in it) is matched on the whole text. */
function linesMatching(text: string, re: RegExp): number[] {
  if (re.source.includes('\\n'))
    return [...text.matchAll(variant(re, 'g'))].map((m) => text.slice(0, m.index).split('\n').length);
  // Most files match no pattern at all: one test of the whole text saves a pass over every line.
  if (!variant(re, 'm').test(text)) return [];
  return text.split('\n').flatMap((line, i) => (re.test(line) ? [i + 1] : []));
}

/** A test whose body does nothing: only `pass` / `...` / `raise NotImplementedError`, an empty Go or JS body. */
function placeholderBody(language: CaseLanguage, c: CaseSpan): string | null {
  if (language === 'python') {
    const body = c.text
      .slice(c.text.search(/\bdef\b/))
      .replace(/^[^\n]*?:\s*(#.*)?\n/, '')
      .replace(/^\s*("""|''')[\s\S]*?\1\s*$/m, '');
    const statements = body
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    if (statements.length > 0 && statements.every((l) => /^(pass|\.\.\.|raise\s+NotImplementedError\b.*)$/.test(l)))
      return `its body is only \`${statements.join('; ')}\``;
    return null;
  }
  const open = c.text.indexOf('{', language === 'go' ? 0 : c.text.search(/=>|function\b/));
  const inner =
    open >= 0
      ? c.text
          .slice(open + 1, c.text.lastIndexOf('}'))
          .replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')
          .trim()
      : null;
  return inner === '' ? 'its body is empty' : null;
}

/**
 * The findings on a test that only a run can confirm: whether a test checks anything is proven by running it (its
 * coverage, the mutants it kills), so these are reported as warnings and handed to the quality gate as hints.
 */
export const STATIC_HINTS: ReadonlySet<Finding['check']> = new Set([
  'no-assertion',
  'constant-assertion',
  'placeholder',
]);

function testFileFindings(file: string, text: string): Finding[] {
  const findings: Finding[] = [];
  const language = languageOf(file) ?? 'js';
  const { cases } = casesOf(file, text);
  const tests = cases.filter((c) => c.kind === 'test');
  // Helpers in the file that assert count as assertions where a test calls them.
  const helpers =
    language === 'python'
      ? [...text.matchAll(/^def\s+(?!test)(\w+)\s*\(([\s\S]*?)(?=^\S|(?![\s\S]))/gm)]
          .filter((m) => m[2]!.split('\n').some((l) => ASSERTION.test(l) || MORE_ASSERTIONS.python.test(l)))
          .map((m) => m[1]!)
      : [];
  const asserts = (t: string): boolean =>
    ASSERTION.test(t) || MORE_ASSERTIONS[language].test(t) || helpers.some((h) => new RegExp(`\\b${h}\\s*\\(`).test(t));
  for (const c of tests) {
    const name = c.path.join(' > ');
    const placeholder = placeholderBody(language, c);
    if (placeholder)
      findings.push({
        file,
        line: c.line,
        severity: 'warning',
        check: 'placeholder',
        message: `test "${name}" is a placeholder: ${placeholder}`,
        test: name,
      });
    else if (!c.text.split('\n').some((l) => asserts(l)))
      findings.push({
        file,
        line: c.line,
        severity: 'warning',
        check: 'no-assertion',
        message: `test "${name}" asserts nothing`,
        test: name,
      });
    if (!TRIVIAL_ASSERTIONS.some((re) => variant(re, 'm').test(c.text))) continue;
    const lines = c.text.split('\n');
    const selfComparison = (l: string) => SELF_COMPARISONS.some((re) => re.test(l));
    // A constant that passes beside real checks marks a path as fine (xmltodict's `except ExpatError:
    // self.assertTrue(True)` then `else: self.assertEqual(...)`): the test still checks something. A value
    // compared with itself is a finding wherever it is: it looks like a check and is none.
    const checksSomething = lines.some((l) => asserts(l) && !isTrivialAssertion(l));
    lines.forEach((l, i) => {
      if (!isTrivialAssertion(l)) return;
      const self = selfComparison(l);
      if (!self && checksSomething) return;
      const what = self ? 'compares a value with itself, a constant result' : 'asserts on a constant';
      findings.push({
        file,
        line: c.line + i,
        severity: 'warning',
        check: 'constant-assertion',
        message: `test "${name}" ${what}: ${l.trim().slice(0, 80)}`,
        test: name,
      });
    });
  }
  // A marker inside a test (its decorators included) is that test's; one outside any (a skipped describe, a
  // module-level pytestmark) is the file's.
  const caseAt = (line: number): CaseSpan | undefined =>
    tests.find((c) => line >= c.line && line < c.line + c.text.split('\n').length);
  for (const m of [...SKIP_MARKERS, ...TEST_FILE_SKIP_MARKERS]) {
    for (const line of linesMatching(text, m.re)) {
      const c = caseAt(line);
      findings.push({
        file,
        line,
        severity: 'critical',
        check: 'focused-or-skipped',
        message: `${m.what}: a focused or skipped test proves nothing${c ? ` ("${c.path.join(' > ')}")` : ''}`,
        ...(c ? { test: c.path.join(' > ') } : {}),
      });
    }
  }
  return findings;
}

/**
 * fixcycle's own L0 checks: on the new test files, unresolved imports, named imports a module does not export,
 * placeholders, tests without assertions, assertions on constants, focused or skipped tests; on the changed
 * source files, placeholders and mocks or test helpers imported by non-test code.
 */
export async function staticChecks(
  root: string,
  testFiles: readonly string[],
  sourceFiles: readonly string[],
): Promise<Finding[]> {
  const imports = await importChecker(root);
  const findings: Finding[] = [];
  const read = (files: readonly string[]) =>
    Promise.all(
      files.map(async (file) => ({ file, text: await readFile(join(root, file), 'utf8').catch(() => null) })),
    );
  for (const { file, text } of await read(testFiles)) {
    if (text === null) continue;
    if (SCRIPT.test(file)) findings.push(...imports.check(file, text));
    if (languageOf(file)) findings.push(...testFileFindings(file, text));
    // In a test file, a test's empty body is the per-test check's; a `pass` helper there (a no-op callback) is fine.
    for (const [re, severity, message] of PLACEHOLDERS.filter(
      ([re]) => !(languageOf(file) && re.source.startsWith('^[ \\t]*def')),
    )) {
      for (const line of linesMatching(text, re)) {
        const c = casesOf(file, text).cases.find(
          (k) => k.kind === 'test' && line >= k.line && line < k.line + k.text.split('\n').length,
        );
        findings.push({
          file,
          line,
          // In a test file a placeholder is a hint for the quality gate, which runs the test (STATIC_HINTS).
          severity: severity === 'critical' ? 'warning' : severity,
          check: 'placeholder',
          message: c ? `${message} in test "${c.path.join(' > ')}"` : message,
          ...(c ? { test: c.path.join(' > ') } : {}),
        });
      }
    }
  }
  for (const { file, text } of await read(sourceFiles)) {
    if (text === null) continue;
    for (const [re, severity, message] of PLACEHOLDERS)
      for (const line of linesMatching(text, re))
        findings.push({ file, line, severity, check: 'placeholder', message });
    if (!SCRIPT.test(file) || isTestSide(file)) continue;
    for (const use of importsOf(text)) {
      if (MOCK_IMPORT.test(use.specifier))
        findings.push({
          file,
          line: use.line,
          severity: 'critical',
          check: 'mock-in-source',
          message: `source code imports "${use.specifier}", a mock or test helper`,
        });
    }
  }
  // One finding per place and kind.
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.file}:${f.line}:${f.check}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
