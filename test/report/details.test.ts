import { describe, expect, it } from 'vitest';
import { detectReportFormat, parseReport } from '../../src/engine/report/index.js';
import type { NormalizedResult, TestCase } from '../../src/engine/types.js';
import { readReport, REPORT_FIXTURES } from './fixture.js';

const ROOT = '/tmp/fixcycle-fixtures';

function read(path: string, rootDir?: string): NormalizedResult {
  const outcome = parseReport(readReport(path), undefined, rootDir ? { rootDir } : {});
  if (!outcome.ok) throw new Error(`${path}: ${outcome.error}`);
  return outcome.result;
}

function byName(result: NormalizedResult, name: string): TestCase {
  const test = result.tests.find((t) => t.name === name);
  if (!test) throw new Error(`no test named ${name}: ${result.tests.map((t) => t.name).join(', ')}`);
  return test;
}

describe('details read from real reports', () => {
  it.each(REPORT_FIXTURES)('detects %s as %s and gives every test a unique id', (path, format) => {
    const text = readReport(path);
    expect(detectReportFormat(text)).toBe(format);
    const ids = read(path).tests.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('builds ids as <file>::<suite path> > <name>, with files relative to the root', () => {
    const vitest = read('vitest/mixed.json', `${ROOT}/vitest`);
    expect(vitest.tests.map((t) => t.id)).toContain(
      'test/math.test.js::math > nested <deep> & "quoted" > añade ünïcödé — 日本語 ✓ 🚀',
    );
    expect(byName(vitest, 'adds')).toMatchObject({
      id: 'test/math.test.js::math > adds',
      file: 'test/math.test.js',
      status: 'passed',
    });
    expect(byName(read('jest/mixed.json', `${ROOT}/jest`), 'multiplies wrongly').id).toBe(
      'test/math.test.js::math > multiplies wrongly',
    );
    expect(byName(read('mocha/mixed.json', `${ROOT}/mocha`), 'multiplies wrongly').id).toBe(
      'test/math.test.js::math > multiplies wrongly',
    );
    expect(byName(read('pytest/mixed.xml'), 'test_inside_class').id).toBe(
      'tests.test_math.TestNested::test_inside_class',
    );
    expect(byName(read('go/mixed.jsonl'), 'TestTable/日本語_✓_🚀').id).toBe(
      'example.com/fx/calc::TestTable/日本語_✓_🚀',
    );
    expect(read('cargo/junit-concatenated.xml').tests.map((t) => t.id)).toEqual(
      expect.arrayContaining(['tests::adds', 'tests::añade_ünïcödé', 'integration::integration_ok']),
    );
  });

  it('keeps a test’s TAP id the same whether it passes or fails (files appear only on failures)', () => {
    const tap = read('node-test/mixed.tap', `${ROOT}/node-test`);
    expect(byName(tap, 'adds')).toMatchObject({ id: 'math > adds', status: 'passed' });
    expect(byName(tap, 'multiplies wrongly')).toMatchObject({
      id: 'math > multiplies wrongly',
      file: 'test/math.test.js',
    });
    expect(byName(tap, 'añade ünïcödé — 日本語 ✓ 🚀').id).toBe(
      'math > nested <deep> & "quoted" > añade ünïcödé — 日本語 ✓ 🚀',
    );
    const tape = read('tape/mixed.tap');
    expect(tape.tests.map((t) => t.id)).toContain('añade ünïcödé — 日本語 ✓ 🚀 > ünïcödé assertion ✓');
  });

  it('decodes XML entities once, as the runner wrote them', () => {
    expect(read('pytest/mixed.xml').tests.map((t) => t.name)).toContain('test_unicode[<deep> & "quoted"]');
    // node:test escapes the quote twice in its suite name; one decoding leaves what it wrote.
    expect(read('node-test/mixed.xml').tests.map((t) => t.id)).toContain(
      'math > nested <deep> & &quot;quoted&quot; > añade ünïcödé — 日本語 ✓ 🚀',
    );
    expect(read('hand-written/nextest.xml').tests.map((t) => t.name)).toContain('tests::añade_ünïcödé');
  });

  it('trusts the status of a retried test and records its retries', () => {
    expect(byName(read('vitest/mixed.json'), 'passes on the second try')).toMatchObject({
      status: 'passed',
      retries: 1,
    });
    expect(byName(read('vitest/mixed.json'), 'passes on the second try').message).toBeUndefined();
    expect(byName(read('jest/mixed.json'), 'passes on the second try')).toMatchObject({ status: 'passed', retries: 1 });
    expect(byName(read('mocha/mixed.json'), 'passes on the second try')).toMatchObject({
      status: 'passed',
      retries: 1,
    });
    const nextest = read('hand-written/nextest.xml');
    expect(byName(nextest, 'tests::flaky_network')).toMatchObject({ status: 'passed', retries: 1 });
    expect(byName(nextest, 'integration_retried_and_failed')).toMatchObject({
      status: 'failed',
      retries: 1,
      id: 'fxcalc::it::integration_retried_and_failed',
    });
  });

  it('gives each failure the message a person reads first, and the stack', () => {
    const vitest = byName(read('vitest/mixed.json'), 'multiplies wrongly');
    expect(vitest.message).toMatch(
      /^AssertionError: expected 6 to be 7 \/\/ Object\.is equality\nat \S*test\/math\.test\.js:4:50$/,
    );
    expect(vitest.stack).toContain('math.test.js:4:50');
    expect(byName(read('mocha/mixed.json'), 'throws asynchronously').message).toMatch(
      /^Uncaught Error: uncaught boom(\nat \S+:\d+:\d+)?$/,
    );
    // TAP runners: the error, the evidence the runner printed, and where the test failed.
    expect(byName(read('node-test/mixed.tap'), 'reads a property of undefined').message).toMatch(
      /^TypeError: Cannot read properties of undefined \(reading 'name'\)\nat \S*test\/crash\.test\.js:2:81$/,
    );
    expect(byName(read('tape/mixed.tap'), 'six is seven').message).toMatch(
      /^six is seven\noperator: equal\nexpected: 7\nactual: 6\nat \S*test\/math\.js:3:44$/,
    );
    expect(byName(read('go/mixed.jsonl'), 'TestNilPointer').message).toMatch(
      /^panic: runtime error: invalid memory address/,
    );
    expect(byName(read('cargo/junit-concatenated.xml'), 'panics').message).toContain('index out of bounds');
    expect(byName(read('pytest/mixed.xml'), 'test_uses_db').message).toContain('ECONNREFUSED');
  });

  it('names the file and the cause of each error outside tests', () => {
    expect(read('vitest/mixed.json', `${ROOT}/vitest`).errors).toEqual([
      {
        file: 'test/broken-import.test.js',
        message: expect.stringContaining("Cannot find module './does-not-exist.js'"),
      },
    ]);
    expect(read('jest/mixed.json', `${ROOT}/jest`).errors).toEqual([
      {
        file: 'test/broken-import.test.js',
        message: expect.stringMatching(/^Cannot find module '\.\/does-not-exist'/),
      },
    ]);
    expect(read('mocha/mixed.json', `${ROOT}/mocha`).errors).toEqual([
      {
        file: 'test/hook.test.js',
        message: 'database "before all" hook for "queries rows": Error: connect ECONNREFUSED 127.0.0.1:5432',
      },
    ]);
    expect(read('node-test/mixed.tap', `${ROOT}/node-test`).errors).toEqual([
      {
        file: 'test/broken-import.test.js',
        message: expect.stringMatching(/^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module/),
      },
    ]);
    expect(read('node-test/mixed.xml', `${ROOT}/node-test`).errors).toEqual([
      { file: 'test/broken-import.test.js', message: expect.stringContaining('see its TAP or spec output') },
    ]);
    expect(read('go/mixed.jsonl').errors).toEqual([{ file: 'example.com/fx/broken', message: 'build failed' }]);
    expect(read('hand-written/go-build-output.jsonl').errors).toEqual([
      { file: 'example.com/fx/broken', message: expect.stringContaining('undefined: undefinedFunction') },
    ]);
  });
});
