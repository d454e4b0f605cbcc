import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runReportCommand } from '../../src/commands/report.js';
import { REPORTS_DIR } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'fixcycle-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(file: string, opts: { format?: string; json?: boolean } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runReportCommand(file, opts, { stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('fixcycle report', () => {
  it('prints counts, the verdict and each failure with its file and first message line; exits 1 on failures', async () => {
    const { code, stdout, stderr } = await run(`${REPORTS_DIR}vitest/mixed.json`);
    expect(code).toBe(1);
    expect(stderr).toBe('');
    expect(stdout).toContain('format     vitest-json');
    expect(stdout).toMatch(
      /passed\s+5\nfailed\s+2\nskipped\s+2\nerrors\s+1\ntruncated\s+no\nok\s+no — 2 failed, 1 error outside tests/,
    );
    expect(stdout).toContain(
      '✗ multiplies wrongly  (/tmp/fixcycle-fixtures/vitest/test/math.test.js)\n    AssertionError: expected 6 to be 7 // Object.is equality',
    );
    expect(stdout).toContain(
      "Errors outside tests\n  ! /tmp/fixcycle-fixtures/vitest/test/broken-import.test.js\n    Cannot find module './does-not-exist.js'",
    );
  });

  it('prints one JSON object with --json and exits 0 on a passing report', async () => {
    const { code, stdout } = await run(`${REPORTS_DIR}node-test/passing.xml`, { json: true });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      format: 'junit',
      passed: 2,
      failed: 0,
      skipped: 0,
      errors: 0,
      truncated: false,
      ok: true,
      failures: [],
      errorDetails: [],
    });
  });

  it('gives each failure its id, name, file and message in JSON', async () => {
    const { stdout } = await run(`${REPORTS_DIR}go/mixed.jsonl`, { json: true });
    const json = JSON.parse(stdout);
    expect(json).toMatchObject({ format: 'go-json', failed: 3, errors: 1, ok: false });
    expect(json.failures[0]).toEqual({
      id: 'example.com/fx/calc::TestMultipliesWrongly',
      name: 'TestMultipliesWrongly',
      file: 'example.com/fx/calc',
      message: 'calc_test.go:13: 2*3 = 6, want 7',
    });
    expect(json.errorDetails).toEqual([{ file: 'example.com/fx/broken', message: 'build failed' }]);
  });

  it('exits 1 and says why for a truncated report', async () => {
    const { code, stdout } = await run(`${REPORTS_DIR}tape/crash.tap`);
    expect(code).toBe(1);
    expect(stdout).toContain('ok         no — 1 error outside tests, the report is cut off');
    expect(stdout).toContain('the stream stops inside test "reads a property of undefined"');
  });

  it('exits 1 for an empty report: no test ran', async () => {
    const file = join(dir, 'empty.xml');
    writeFileSync(file, '<testsuites/>');
    const { code, stdout } = await run(file);
    expect(code).toBe(1);
    expect(stdout).toContain('ok         no — no test ran');
  });

  it('falls back to the summary line of a plain output log', async () => {
    const { code, stdout } = await run(`${REPORTS_DIR}jest/mixed.out.txt`, { json: true });
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      format: 'summary-line:jest',
      passed: 5,
      failed: 2,
      ok: false,
      failures: [],
    });
    expect((await run(`${REPORTS_DIR}cargo/mixed.out.txt`)).stdout).toContain(
      "format     summary-line:cargo  (counts of tests from the runner's summary line; no per-test detail)",
    );
  });

  it.each([
    [
      'a missing file',
      () => join(dir, 'nope.xml'),
      {},
      /^fixcycle: cannot read .*nope\.xml: no such file; check the path$/,
    ],
    ['a directory', () => dir, {}, /it is a directory/],
    [
      'a file that is no report',
      () => write('notes.txt', 'just some notes\n'),
      {},
      /not a test report fixcycle reads .*--format/,
    ],
    [
      'a report of another format than asked',
      () => `${REPORTS_DIR}tape/passing.tap`,
      { format: 'junit' },
      /no <testsuites> or <testsuite> root/,
    ],
    [
      'an unknown format name',
      () => `${REPORTS_DIR}tape/passing.tap`,
      { format: 'xunit' },
      /unknown report format "xunit"; use one of junit, tap/,
    ],
    [
      'a cut-off JSON report',
      () => write('cut.json', '{"numTotalTests": 3, "testResults": [{"name"'),
      {},
      /not valid JSON .*cut off/,
    ],
  ])('exits 2 with a one-line error for %s', async (_what, file, opts, message) => {
    const { code, stdout, stderr } = await run(file(), opts);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('\n');
  });

  // root reads any file whatever its mode, so there the error cannot happen.
  it.skipIf(process.getuid?.() === 0)('exits 2 for a file it may not read', async () => {
    const file = write('secret.xml', '<testsuites/>');
    chmodSync(file, 0o000);
    const { code, stderr } = await run(file);
    expect(code).toBe(2);
    expect(stderr).toMatch(/permission denied/);
  });
});

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
