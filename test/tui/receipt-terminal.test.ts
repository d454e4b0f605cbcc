// Quitting leaves a receipt on the normal screen (outcome, pass rate, iterations, session id, the command to go on),
// and the bell rings when the run waits for a decision unless --no-bell. A real loop in a real terminal, on a temp
// git repository with a real `node --test` suite and a scripted agent. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnInPty, type PtyTerminal } from './pty-terminal.js';
import { AGENT, SHOP_FILES } from './shop-scenario.js';
import { tempRepo } from './temp-repo.js';

const CLI = resolve(import.meta.dirname, '../../dist/cli.js');
const repo = tempRepo('fixcycle-receipt-');
const agent = `${repo.dir}-agent.mjs`;
let term: PtyTerminal | undefined;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with npm run build`);
  repo.commit('initial', SHOP_FILES);
  writeFileSync(agent, AGENT);
});
afterAll(() => {
  term?.kill();
  repo.cleanup();
  rmSync(agent, { force: true });
});

function run(name: string, ...extra: string[]) {
  term = spawnInPty(
    process.execPath,
    [
      CLI,
      'run',
      '--session-name',
      name,
      '--test-cmd',
      'node --test',
      '--agent-cmd',
      `${process.execPath} ${agent} ${repo.dir}-calls.log`,
      ...extra,
    ],
    { columns: 100, rows: 30, cwd: repo.dir },
  );
  return term;
}

describe('the receipt after quitting', () => {
  it('after q: outcome, pass rate, iterations, session id and how to resume; the bell rang at the question', async () => {
    const t = run('receipt-q');
    await t.waitFor('Partial success awaiting approval', 60_000);
    await t.waitFor(() => t.bells() > 0, 2000);
    t.press('q');
    await t.waitFor('Stop the loop now');
    t.press('y');
    expect((await t.exited).exitCode).toBe(130);
    expect(t.buffer()).toBe('normal');
    const screen = t.screen();
    expect(screen).toContain('fixcycle: ‖ Interrupted · pass rate 95% · iteration 1/10 · WFS-test-receipt-q');
    expect(screen).toContain('resume: fixcycle run --resume-session WFS-test-receipt-q');
    // The loop worked in a worktree of its own: the user's branch holds no fix commit of the interrupted session.
    expect(repo.git('rev-list', '--count', 'HEAD')).toBe('1');
  }, 90_000);

  it('after Ctrl-C, and no bell with --no-bell', async () => {
    const t = run('receipt-c', '--no-bell');
    await t.waitFor('Partial success awaiting approval', 60_000);
    t.press('\x03');
    await t.waitFor('Stop the loop now');
    t.press('y');
    await t.exited;
    expect(t.screen()).toContain('fixcycle: ‖ Interrupted · pass rate 95% · iteration 1/10 · WFS-test-receipt-c');
    expect(t.screen()).toContain('resume: fixcycle run --resume-session WFS-test-receipt-c');
    expect(t.bells()).toBe(0);
  }, 90_000);
});
