// In a real terminal, `fixcycle watch` (what the pane runs) drops the approval question within a second of the
// session leaving it: the state files are written as `fixcycle run --headless --wait-approval` writes them when a
// pane rolls back at the approval. Needs `npm run build`.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnInPty, type PtyTerminal } from './pty-terminal.js';
import { failure, iterationState, results } from './scenarios.js';

const CLI = resolve(import.meta.dirname, '../../dist/cli.js');
const work = mkdtempSync(join(tmpdir(), 'fixcycle-stale-'));
let term: PtyTerminal | undefined;
afterEach(() => term?.kill());
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FIXED = {
  iteration: 1,
  strategy: 'conservative' as const,
  pass_rate_before: 80,
  pass_rate: 95,
  test_results: { total: 20, passed: 19, failed: 1 },
  result: 'improved',
  step: 'done' as const,
  commit: '1bd3769aa9f0c3e1d2b4a5c6d7e8f90123456789',
};

describe('fixcycle watch after a rollback from a pane', () => {
  it('drops the approval question within 1 s of the state file leaving it', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with npm run build`);
    const dir = join(work, '.workflow/active/WFS-test-second');
    mkdirSync(join(dir, '.process'), { recursive: true });
    const write = (name: string, value: unknown) => {
      const path = join(dir, '.process', name);
      writeFileSync(`${path}.tmp`, JSON.stringify(value));
      renameSync(`${path}.tmp`, path);
    };
    const low = failure('cosmetic: greeting is title case', 'AssertionError: HELLO !== Hello', 'low');
    write('test-results.json', results(95, [low], 20));
    write(
      'iteration-state.json',
      iterationState([FIXED], { status: 'awaiting_approval', next_action: 'await_approval' }),
    );

    term = spawnInPty(process.execPath, [CLI, 'watch', '-C', work, '--session', 'WFS-test-second'], {
      columns: 60,
      rows: 24,
      cwd: work,
    });
    await term.waitFor('awaiting approval');

    write('test-results.json', results(80, [low, failure('total of one item', 'AssertionError: 6 !== 5')], 20));
    write(
      'iteration-state.json',
      iterationState([{ ...FIXED, result: 'rolled_back', rollback_commit: 'abcdef0123' }], {
        status: 'active',
        next_action: 'execute_fix_task',
      }),
    );
    const left = Date.now();
    const screen = await term.waitFor((s) => !s.includes('awaiting approval') && !s.includes('approves'), 1000);
    expect(Date.now() - left).toBeLessThan(1000);
    expect(screen).not.toMatch(/\?\s*Completion/);
    term.press('q');
    expect((await term.exited).exitCode).toBe(0);
  });
});
