import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ASSERTION, SKIP_MARKERS, TEST_FILE_SKIP_MARKERS, TRIVIAL_ASSERTIONS } from '../../guard/patterns.js';
import { isTestSide } from '../source-files.js';
import type { Finding } from './finding.js';
import { importChecker, importsOf } from './imports.js';
import { findTestCases } from './test-cases.js';

const PLACEHOLDERS: [RegExp, 'critical' | 'warning', string][] = [
  [/throw\s+new\s+\w*Error\(\s*['"`](not implemented|todo|unimplemented)/i, 'critical', 'throws "not implemented"'],
  [/\bnot implemented\b|\bunimplemented!?\(/i, 'critical', 'placeholder: "not implemented"'],
  [/\/\/\s*(TODO|FIXME)\b|#\s*(TODO|FIXME)\b/, 'warning', 'a TODO/FIXME left in'],
  [/^\s*def [^\n]*:\s*\n\s+pass\s*$/m, 'critical', 'a function whose body is only `pass`'],
];
const MOCK_IMPORT = /(^|\/)(__mocks__|mocks?|fixtures?|test-?helpers?)(\/|$)|^(vitest|jest|@jest\/globals|sinon|nock|testdouble)$/;
const SCRIPT = /\.(m|c)?[jt]sx?$/;

const derived = new Map<RegExp, RegExp>();
function variant(re: RegExp, flag: 'g' | 'm'): RegExp {
  let v = derived.get(re);
  if (!v) derived.set(re, (v = new RegExp(re.source, re.flags.includes(flag) ? re.flags : `${re.flags}${flag}`)));
  return v;
}

/** 1-based lines where `re` matches; a pattern spanning lines (`\n` in it) is matched on the whole text. */
function linesMatching(text: string, re: RegExp): number[] {
  if (re.source.includes('\\n')) return [...text.matchAll(variant(re, 'g'))].map((m) => text.slice(0, m.index).split('\n').length);
  // Most files match no pattern at all: one test of the whole text saves a pass over every line.
  if (!variant(re, 'm').test(text)) return [];
  return text.split('\n').flatMap((line, i) => (re.test(line) ? [i + 1] : []));
}

function testFileFindings(file: string, text: string): Finding[] {
  const findings: Finding[] = [];
  for (const c of findTestCases(text)) {
    const body = c.text.split('\n');
    if (!body.some((l) => ASSERTION.test(l))) findings.push({ file, line: c.line, severity: 'critical', check: 'no-assertion', message: `test "${c.name}" asserts nothing`, test: c.name });
    if (!TRIVIAL_ASSERTIONS.some((re) => variant(re, 'm').test(c.text))) continue;
    body.forEach((l, i) => {
      if (TRIVIAL_ASSERTIONS.some((re) => re.test(l))) findings.push({ file, line: c.line + i, severity: 'critical', check: 'constant-assertion', message: `test "${c.name}" asserts on a constant: ${l.trim().slice(0, 80)}`, test: c.name });
    });
  }
  for (const m of [...SKIP_MARKERS, ...TEST_FILE_SKIP_MARKERS]) {
    for (const line of linesMatching(text, m.re)) findings.push({ file, line, severity: 'critical', check: 'focused-or-skipped', message: `${m.what}: a focused or skipped test proves nothing` });
  }
  return findings;
}

/**
 * fixcycle's own L0 checks: on the new test files, unresolved imports, named imports a module does not export,
 * placeholders, tests without assertions, assertions on constants, focused or skipped tests; on the changed
 * source files, placeholders and mocks or test helpers imported by non-test code.
 */
export async function staticChecks(root: string, testFiles: readonly string[], sourceFiles: readonly string[]): Promise<Finding[]> {
  const imports = await importChecker(root);
  const findings: Finding[] = [];
  const read = (files: readonly string[]) => Promise.all(files.map(async (file) => ({ file, text: await readFile(join(root, file), 'utf8').catch(() => null) })));
  for (const { file, text } of await read(testFiles)) {
    if (text === null) continue;
    if (SCRIPT.test(file)) findings.push(...imports.check(file, text), ...testFileFindings(file, text));
    for (const [re, severity, message] of PLACEHOLDERS) for (const line of linesMatching(text, re)) findings.push({ file, line, severity, check: 'placeholder', message });
  }
  for (const { file, text } of await read(sourceFiles)) {
    if (text === null) continue;
    for (const [re, severity, message] of PLACEHOLDERS) for (const line of linesMatching(text, re)) findings.push({ file, line, severity, check: 'placeholder', message });
    if (!SCRIPT.test(file) || isTestSide(file)) continue;
    for (const use of importsOf(text)) {
      if (MOCK_IMPORT.test(use.specifier)) findings.push({ file, line: use.line, severity: 'critical', check: 'mock-in-source', message: `source code imports "${use.specifier}", a mock or test helper` });
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
