// `fixcycle pane` in a real tmux (a private server, driven with tmux commands): the pane waits, follows a
// headless run started in the user's pane, approves it and rolls it back with its keys, follows a second
// run without a restart, is reused by a second `fixcycle pane`, and q closes it and nothing else.
// Needs `npm run build` and tmux.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { activeDir } from '../../src/engine/session/paths.js';
import { AGENT, SHOP, SHOP_FILES } from '../tui/shop-scenario.js';
import { tempRepo } from '../tui/temp-repo.js';
import { startTmux, tmuxMissing, type Tmux } from './tmux.js';

const CLI = resolve(import.meta.dirname, '../../dist/cli.js');
const missing = tmuxMissing();
const repo = tempRepo('fixcycle-pane-');
const agent = `${repo.dir}-agent.mjs`;
const calls = `${repo.dir}-calls.log`;
let tmux: Tmux | undefined;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with npm run build`);
  repo.commit('initial', SHOP_FILES);
  writeFileSync(agent, AGENT);
});
afterAll(() => {
  tmux?.kill();
  repo.cleanup();
  rmSync(agent, { force: true });
  rmSync(calls, { force: true });
});

function sessions(): string[] {
  return readdirSync(activeDir(repo.dir))
    .filter((n) => n.startsWith('WFS-test-'))
    .sort();
}

function stateOf(id: string) {
  return JSON.parse(readFileSync(join(activeDir(repo.dir), id, '.process/iteration-state.json'), 'utf8'));
}

const headlessRun = (name: string) =>
  `clear; ${process.execPath} ${CLI} run --headless --session-name ${name} --test-cmd 'node --test' --agent-cmd '${process.execPath} ${agent} ${calls}'; echo EXIT=$?`;

describe.skipIf(missing !== null)(`fixcycle pane in tmux${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('splits the window, follows and controls two headless runs, is reused, and q closes only itself', async () => {
    const t = (tmux = startTmux(`fixcycle-test-${process.pid}`, repo.dir));
    const user = t.panes()[0]!.id;
    t.type(user, `${process.execPath} ${CLI} pane`);
    await t.until(() => t.panes().some((p) => p.mark === '1'), 'the split, marked as fixcycle');
    expect(t.panes()).toHaveLength(2);
    const pane = t.panes().find((p) => p.mark === '1')!;
    expect(pane, 'the new pane is marked as fixcycle').toBeDefined();
    // The focus stays in the user's pane.
    expect(t.panes().find((p) => p.active)?.id).toBe(user);
    await t.waitFor(pane.id, 'Waiting for a session in');

    // A headless run in the user's pane: the pane shows it; at the partial success the run waits for the pane.
    t.type(user, headlessRun('first'));
    await t.waitFor(pane.id, 'WFS-test-first');
    await t.waitFor(pane.id, 'Partial success awaiting approval', 60_000);
    expect(t.screen(user)).not.toContain('EXIT=');
    t.keys(pane.id, 'a');
    await t.waitFor(user, 'EXIT=0', 30_000);
    const first = stateOf('WFS-test-first');
    expect(first.status).toBe('partial_success');
    expect(first.approved_by).toMatch(new RegExp(`^fixcycle pane ${pane.id} \\(pid \\d+\\)$`));
    expect(first.intents).toEqual([expect.objectContaining({ action: 'approve', applied: true })]);
    await t.waitFor(pane.id, 'Partial success · pass rate 95% · exit code 0');

    // The bug comes back; a second run: the pane switches to it without a restart; r, y roll iteration 1 back.
    repo.commit('the bug again', { 'src/shop.js': SHOP });
    t.type(user, headlessRun('second'));
    await t.waitFor(pane.id, 'WFS-test-second');
    await t.waitFor(pane.id, 'Partial success awaiting approval', 60_000);
    t.keys(pane.id, 'r');
    await t.waitFor(pane.id, 'Roll back iteration 1');
    t.keys(pane.id, 'y');
    await t.until(
      () => stateOf('WFS-test-second').iterations[0]?.result === 'rolled_back',
      'the rollback in iteration-state.json',
      60_000,
    );
    // Rolled back to 80%, the loop fixes again in iteration 2 and asks again.
    await t.until(
      () =>
        stateOf('WFS-test-second').iterations.length === 2 && stateOf('WFS-test-second').status === 'awaiting_approval',
      'iteration 2 awaiting approval',
      60_000,
    );
    await t.waitFor(
      pane.id,
      (s) => s.includes('Partial success awaiting approval') && s.includes('rolled back by user'),
      30_000,
    );
    t.keys(pane.id, 'a');
    await t.waitFor(user, (s) => s.includes('EXIT=0'), 30_000);
    const second = stateOf('WFS-test-second');
    expect(second.status).toBe('partial_success');
    expect(second.approved_by).toContain(`fixcycle pane ${pane.id}`);
    expect(second.intents.map((i: { action: string; applied: boolean }) => [i.action, i.applied])).toEqual([
      ['rollback', true],
      ['approve', true],
    ]);
    expect(repo.git('log', '--format=%s', '-3')).toMatch(/rollback iteration 1 - requested by user/);

    // A second `fixcycle pane` in the window reuses the pane.
    t.type(user, `clear; ${process.execPath} ${CLI} pane`);
    await t.waitFor(user, `already open in this window (${pane.id})`);
    expect(t.panes()).toHaveLength(2);

    // q closes the pane (the session has ended: no question) and nothing else.
    await t.waitFor(pane.id, 'Partial success · pass rate 95% · exit code 0');
    t.keys(pane.id, 'q');
    await t.until(() => t.panes().length === 1, 'the pane to close');
    expect(t.panes()[0]!.id).toBe(user);
    expect(sessions()).toEqual(['WFS-test-first', 'WFS-test-second']);
  }, 240_000);
});
