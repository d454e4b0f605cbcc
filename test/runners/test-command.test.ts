import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDoctorCommand } from '../../src/commands/doctor.js';
import { resolveRunner, RunnerResolutionError } from '../../src/engine/runners/index.js';
import { copyFixture, counts, removeFixtures } from './helpers/fixtures.js';
import { isProcessAlive } from './helpers/processes.js';

afterAll(removeFixtures);

/** A project whose only "test command" is a node script printing `output` and exiting with `code`. */
function scriptProject(output: string, code: number): string {
  const dir = copyFixture('node-test-passing');
  writeFileSync(join(dir, 'check.cjs'), `process.stdout.write(${JSON.stringify(output)}); process.exit(${code});`);
  return dir;
}

describe('--test-cmd', () => {
  it('follows "npm test" to the runner the script calls and runs it directly with its report flags', async () => {
    const dir = copyFixture('mocha-failing');
    const runner = await resolveRunner(dir, { testCmd: 'npm test' });
    expect(runner.name).toBe('mocha');
    expect(runner.detectedFrom).toBe('--test-cmd "npm test": npm test -> scripts.test: "mocha"');
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 60_000 });
    expect(run.command.slice(0, 2)).toEqual(['mocha', '--reporter']);
    expect(run.source).toBe('report');
    expect(counts(run.result)).toEqual({ passed: 1, failed: 2, skipped: 1, errors: 0 });
  });

  it('reads a TAP stream from a command it cannot see into', async () => {
    const dir = scriptProject('TAP version 13\nok 1 - adds\nnot ok 2 - divides\n1..2\n', 1);
    const runner = await resolveRunner(dir, { testCmd: 'node check.cjs' });
    expect(runner.name).toBe('command');
    expect(runner.detectedFrom).toMatch(/runs a script, not a test runner fixcycle knows; counts from its output/);
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 30_000 });
    expect(run.source).toBe('report');
    expect(counts(run.result)).toEqual({ passed: 1, failed: 1, skipped: 0, errors: 0 });
  });

  it('falls back to the summary line, counting tests in a stable order', async () => {
    const dir = scriptProject('checking...\nTests: 1 failed, 3 passed, 4 total\n', 1);
    const run = await (
      await resolveRunner(dir, { testCmd: 'node check.cjs' })
    ).run({ cwd: dir, scope: 'full', timeoutMs: 30_000 });
    expect(run.source).toBe('output');
    expect(counts(run.result)).toEqual({ passed: 3, failed: 1, skipped: 0, errors: 0 });
    expect(run.result.tests.map((test) => test.id)).toEqual(['summary#1', 'summary#2', 'summary#3', 'summary#4']);
  });

  it('uses the exit code only as a last resort, and a failing one is never a success', async () => {
    const good = scriptProject('all good\n', 0);
    const passed = await (
      await resolveRunner(good, { testCmd: 'node check.cjs' })
    ).run({ cwd: good, scope: 'full', timeoutMs: 30_000 });
    expect(passed.source).toBe('exit-code');
    expect(counts(passed.result)).toEqual({ passed: 1, failed: 0, skipped: 0, errors: 0 });

    const bad = scriptProject('something broke\n', 2);
    const failed = await (
      await resolveRunner(bad, { testCmd: 'node check.cjs' })
    ).run({ cwd: bad, scope: 'full', timeoutMs: 30_000 });
    expect(failed.source).toBe('exit-code');
    expect(counts(failed.result)).toEqual({ passed: 0, failed: 0, skipped: 0, errors: 1 });
    expect(failed.result.errors[0]?.message).toMatch(/exit code 2[\s\S]*something broke/);
  });

  it('refuses a command line that needs a shell, saying what to do', async () => {
    const dir = copyFixture('node-test-passing');
    await expect(resolveRunner(dir, { testCmd: 'make build && make check' })).rejects.toThrow(
      /needs a shell .*package.json script/,
    );
  });
});

describe('a hung test command', () => {
  it('is killed at the timeout with its whole process tree, keeping what it printed', async () => {
    const dir = copyFixture('node-test-hung');
    const logFile = join(dir, 'test-output.log');
    const runner = await resolveRunner(dir, {});
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 3000, logFile });
    expect(run.timedOut).toBe(true);
    expect(run.result.errors.some((error) => /timed out and was killed/.test(error.message))).toBe(true);
    expect(readFileSync(logFile, 'utf8')).toContain('passes');
    const pidFile = join(dir, 'server.pid');
    expect(existsSync(pidFile)).toBe(true);
    expect(isProcessAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });
});

describe('resolveRunner errors', () => {
  it('names the cause and the fix when nothing says how to test', async () => {
    const dir = copyFixture('node-test-passing');
    writeFileSync(join(dir, 'package.json'), '{"name":"x"}');
    await expect(resolveRunner(dir, {})).rejects.toThrow(RunnerResolutionError);
    await expect(resolveRunner(dir, {})).rejects.toThrow(/no test runner found .*--test-cmd .*--runner/);
  });

  it('rejects an unknown --runner and a runner that is not installed', async () => {
    const dir = copyFixture('node-test-passing');
    await expect(resolveRunner(dir, { runner: 'karma' })).rejects.toThrow(
      /unknown runner "karma": use --runner vitest\|jest/,
    );
    await expect(resolveRunner(dir, { runner: 'ava' })).rejects.toThrow(
      /"ava", which is not installed in node_modules\/.bin \(run npm install\)/,
    );
  });
});

describe('fixcycle doctor', () => {
  it('prints the runner, where it was found, the exact commands and where counts come from', async () => {
    const dir = copyFixture('jest-failing');
    const out: string[] = [];
    const code = await runDoctorCommand(
      dir,
      {},
      { stdout: (text) => out.push(text), stderr: (text) => out.push(`ERR ${text}`) },
    );
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('test runner: jest');
    expect(text).toContain('detected from: scripts.test in package.json ("jest")');
    expect(text).toContain('full suite:    jest --json --outputFile=<report-dir>/jest.json');
    expect(text).toContain('related:       jest --passWithNoTests --findRelatedTests <changed-files> --json');
    expect(text).toContain('counts from:   a report: jest JSON report');
  });

  it('exits 2 with a one-line error when no runner resolves', async () => {
    const dir = copyFixture('node-test-passing');
    const err: string[] = [];
    const code = await runDoctorCommand(
      dir,
      { runner: 'karma' },
      { stdout: () => undefined, stderr: (text) => err.push(text) },
    );
    expect(code).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^fixcycle: unknown runner "karma"/);
  });
});
