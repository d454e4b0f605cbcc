import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/engine/process/run-command.js';
import { isProcessAlive } from './helpers/processes.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fixcycle-proc-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A script that starts a grandchild sleeping forever (sharing its stdout), records its pid, then acts. */
function writeSpawner(then: 'hang' | 'exit'): string {
  const script = join(dir, 'spawner.cjs');
  writeFileSync(
    script,
    `const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });
require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'grandchild.pid'))}, String(child.pid));
console.log('started grandchild');
${then === 'hang' ? 'setInterval(() => {}, 1000);' : 'process.exit(0);'}
`,
  );
  return script;
}

function grandchildPid(): number {
  return Number(readFileSync(join(dir, 'grandchild.pid'), 'utf8'));
}

describe('runCommand', () => {
  it('streams whole lines from stdout and stderr and appends all of them to the log', async () => {
    const log = join(dir, 'out.log');
    writeFileSync(log, 'earlier run\n');
    const seen: string[] = [];
    const result = await runCommand(
      [
        process.execPath,
        '-e',
        "process.stdout.write('a\\nb'); setTimeout(() => { process.stdout.write('c\\n'); console.error('héllo'); process.stdout.write('no newline'); process.exit(3); }, 50);",
      ],
      { cwd: dir, logFile: log, onLines: (lines) => seen.push(...lines) },
    );
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(seen).toEqual(['a', 'bc', 'héllo', 'no newline']);
    expect(readFileSync(log, 'utf8')).toBe('earlier run\na\nbc\nhéllo\nno newline\n');
    expect(result.outputTail).toContain('héllo');
  });

  it('kills a hung command and the grandchild it started at the timeout, and keeps its output', async () => {
    const log = join(dir, 'out.log');
    const result = await runCommand([process.execPath, writeSpawner('hang')], {
      cwd: dir,
      timeoutMs: 1500,
      graceMs: 500,
      logFile: log,
    });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.durationMs).toBeLessThan(6000);
    expect(readFileSync(log, 'utf8')).toContain('started grandchild');
    expect(isProcessAlive(grandchildPid())).toBe(false);
  });

  it('kills the orphans a finished command left behind, without waiting for the timeout', async () => {
    const result = await runCommand([process.execPath, writeSpawner('exit')], {
      cwd: dir,
      timeoutMs: 30_000,
      graceMs: 500,
    });
    expect(result.exitCode).toBe(0);
    expect(result.timedOut).toBe(false);
    expect(result.durationMs).toBeLessThan(10_000);
    expect(isProcessAlive(grandchildPid())).toBe(false);
  });

  it('kills the tree when the signal aborts', async () => {
    const controller = new AbortController();
    const running = runCommand([process.execPath, writeSpawner('hang')], {
      cwd: dir,
      signal: controller.signal,
      graceMs: 500,
      onLines: (lines) => lines.includes('started grandchild') && controller.abort(),
    });
    const result = await running;
    expect(result.aborted).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(isProcessAlive(grandchildPid())).toBe(false);
  });

  it('says in one line when the command does not exist', async () => {
    const result = await runCommand(['fixcycle-no-such-command'], { cwd: dir });
    expect(result.exitCode).toBeNull();
    expect(result.spawnError).toBe('fixcycle-no-such-command: command not found');
  });
});
