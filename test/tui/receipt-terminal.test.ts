// Before quitting, what happened is readable (the fix diff with d, what the agent said with enter, every failure whole
// with v); quitting leaves a receipt on the normal screen (outcome, pass rate, iterations, session id, the command to go on),
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

    // What happened, read before leaving: the fix's diff from the iterations pane (d), the whole iteration
    // with what the agent said (enter), and every latest failure whole (v).
    t.press('\t');
    await t.waitFor('▸ Iterations');
    t.press('d');
    let screen = await t.waitFor((s) => s.includes('fix diff') && s.includes('+++ b/src/shop.js'));
    expect(screen).toContain('-  return items.reduce((sum, i) => sum + i.price * i.qty, 0) + 1;');
    expect(screen).toContain('+  return items.reduce((sum, i) => sum + i.price * i.qty, 0);');
    t.press('\r');
    await t.waitFor('Fix plan');
    for (let i = 0; i < 6 && !t.screen().includes('Agent · .process/iteration-1-cli-output.txt'); i++) {
      t.press('\x1b[6~');
      await new Promise((r) => setTimeout(r, 150));
    }
    screen = await t.waitFor('Agent · .process/iteration-1-cli-output.txt');
    expect(screen).toContain('"approach":"drop the + 1"');
    expect(screen).toMatch(/agent \(fix\) exit 0 ok/);
    t.press('\x1b');
    await t.waitFor('Iterations');
    t.press('v');
    screen = await t.waitFor('Latest failures · 1');
    expect(screen).toContain('1/1 low · cosmetic: greeting is title case');
    expect(screen).toContain("+ 'HELLO'");
    expect(screen).toContain("- 'Hello'");
    expect(screen).not.toMatch(/more lines/);
    t.press('\x1b');
    await t.waitFor('Iterations');

    t.press('q');
    await t.waitFor('Stop the loop now');
    t.press('y');
    expect((await t.exited).exitCode).toBe(130);
    expect(t.buffer()).toBe('normal');
    screen = t.screen();
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
