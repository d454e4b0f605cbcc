import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, beforeAll } from 'vitest';
import type { CommandResult } from '../../src/engine/process/run-command.js';
import { goBuildFailures } from '../../src/engine/runners/commands/go.js';
import { cargoCommands } from '../../src/engine/runners/commands/cargo.js';
import { plainCommands } from '../../src/engine/runners/commands/plain.js';
import { vitestCommands } from '../../src/engine/runners/commands/vitest.js';
import { bareCall } from '../../src/engine/runners/detect.js';
import { libtestSummary, readLibtestOutput } from '../../src/engine/runners/libtest-output.js';
import { loadReportParsers } from '../../src/engine/runners/report-access.js';
import { readRun } from '../../src/engine/runners/read-result.js';

const dir = mkdtempSync(join(tmpdir(), 'fixcycle-readers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const finished = (overrides: Partial<CommandResult>): CommandResult => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  durationMs: 10,
  outputTail: 'last words',
  ...overrides,
});

// readRun parses synchronously; a run loads the parsers while its command runs, a direct call loads them here.
beforeAll(loadReportParsers);

describe('readLibtestOutput', () => {
  const stdout = [
    '',
    'running 3 tests',
    'test tests::adds ... ok',
    'test tests::slow ... ignored, takes an hour',
    'test tests::fails ... FAILED',
    '',
    'failures:',
    '',
    '---- tests::fails stdout ----',
    'test fake ... ok',
    "thread 'tests::fails' panicked at src/lib.rs:6:9:",
    'assertion failed',
    '',
    'failures:',
    '    tests::fails',
    '',
    'test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s',
    '',
    'running 1 test',
    'test src/lib.rs - add (line 3) ... ok',
    '',
    'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s',
  ].join('\n');

  it('reads each test line, the failure output (not as tests), and agrees with the summary lines', () => {
    const result = readLibtestOutput(stdout)!;
    expect(result.tests.map((test) => [test.id, test.status])).toEqual([
      ['tests::adds', 'passed'],
      ['tests::slow', 'skipped'],
      ['tests::fails', 'failed'],
      ['src/lib.rs - add', 'passed'],
    ]);
    expect(result.tests[2]?.message).toContain('assertion failed');
    expect(result.truncated).toBe(false);
    expect(libtestSummary(stdout)).toEqual({ passed: 2, failed: 1, skipped: 1, binaries: 2 });
  });

  it('calls output cut off before a binary summary truncated, and no test lines no result', () => {
    expect(readLibtestOutput('running 2 tests\ntest a ... ok\n')?.truncated).toBe(true);
    expect(readLibtestOutput('error[E0425]: cannot find function\n')).toBeNull();
  });
});

describe('goBuildFailures', () => {
  it('names each package that did not build, with the compiler errors under its header', () => {
    const output =
      '# example.com/x/broken [example.com/x/broken.test]\nbroken/b_test.go:5:33: undefined: Divide\nFAIL\texample.com/x/broken [build failed]\nok  \texample.com/x/calc\t0.01s\n';
    expect(goBuildFailures(output)).toEqual([
      {
        file: 'example.com/x/broken',
        message: 'package example.com/x/broken did not build:\nbroken/b_test.go:5:33: undefined: Divide',
      },
    ]);
  });
});

describe('readRun', () => {
  const vitest = vitestCommands(bareCall('vitest'));

  it('turns a clean exit that ran no tests into an error, never 0/0 = success', () => {
    const invocation = vitest.full(dir);
    writeFileSync(invocation.report!.file, JSON.stringify({ numTotalTests: 0, testResults: [], success: true }));
    const { result } = readRun({
      commands: vitest,
      invocation,
      command: finished({}),
      output: '',
      scope: 'full',
      cwd: dir,
    });
    expect(result.errors[0]?.message).toMatch(/ran no tests/);
  });

  it('turns a non-zero exit with every test passing into an error (an unhandled error, a coverage threshold)', () => {
    const invocation = vitest.full(dir);
    const passed = { ancestorTitles: [], fullName: 'a', title: 'a', status: 'passed', failureMessages: [] };
    writeFileSync(
      invocation.report!.file,
      JSON.stringify({
        numTotalTests: 1,
        testResults: [{ name: join(dir, 'a.test.js'), status: 'passed', message: '', assertionResults: [passed] }],
      }),
    );
    const { result, source } = readRun({
      commands: vitest,
      invocation,
      command: finished({ exitCode: 1, outputTail: 'Unhandled Rejection: boom' }),
      output: '',
      scope: 'full',
      cwd: dir,
    });
    expect(source).toBe('report');
    expect(result.errors[0]?.message).toMatch(
      /exited with code 1 although no test failed[\s\S]*Unhandled Rejection: boom/,
    );
  });

  it('says cargo stopped at its first failing target, so the targets after it (the doc tests) were not run, not lost', () => {
    const commands = cargoCommands(bareCall('cargo'));
    const invocation = commands.full(dir);
    const stdout =
      'running 2 tests\ntest tests::a ... ok\ntest tests::b ... FAILED\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n';
    writeFileSync(invocation.report!.file, stdout);
    const output = `${stdout}error: test failed, to rerun pass \`--lib\`\n`;
    const { result } = readRun({
      commands,
      invocation,
      command: finished({ exitCode: 101 }),
      output,
      scope: 'full',
      cwd: dir,
    });
    expect(result.stopped).toBe(
      'cargo test stopped at the first failing target (--lib), so the targets after it did not run',
    );
    // With --no-fail-fast cargo runs every target and says so differently: nothing is left unrun.
    const all = readRun({
      commands,
      invocation,
      command: finished({ exitCode: 101 }),
      output: `${stdout}error: 1 target failed:\n    \`--lib\`\n`,
      scope: 'full',
      cwd: dir,
    });
    expect(all.result.stopped).toBeUndefined();
  });

  it('reports a timeout as an error even when the partial output has passing tests', () => {
    const commands = plainCommands(['node', 'x.js']);
    const invocation = commands.full(dir);
    writeFileSync(invocation.report!.file, 'TAP version 13\nok 1 - a\n');
    const { result } = readRun({
      commands,
      invocation,
      command: finished({ exitCode: null, timedOut: true }),
      output: '',
      scope: 'full',
      cwd: dir,
    });
    expect(result.tests.map((test) => test.status)).toEqual(['passed']);
    expect(result.errors.map((error) => error.message).join('\n')).toMatch(/timed out and was killed/);
  });
});
