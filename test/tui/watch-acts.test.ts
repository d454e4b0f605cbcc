// Plain `fixcycle watch` acts on a session another process drives, as the pane does: its keys become intents the
// driving run applies. A real headless run on a temp git repository waits for approval; `a` in watch approves it.
// Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { activeDir } from '../../src/engine/session/paths.js';
import { spawnInPty, terminalEnv, type PtyTerminal } from './pty-terminal.js';
import { AGENT, SHOP_FILES } from './shop-scenario.js';
import { tempRepo } from './temp-repo.js';

const CLI = resolve(import.meta.dirname, '../../dist/cli.js');
const repo = tempRepo('fixcycle-watch-acts-');
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

describe('fixcycle watch', () => {
  it('approves a headless run waiting for a decision with a', async () => {
    const run = spawn(
      process.execPath,
      [
        CLI,
        'run',
        '--headless',
        '--wait-approval',
        '--session-name',
        'acted',
        '--test-cmd',
        'node --test',
        '--agent-cmd',
        `${process.execPath} ${agent} ${repo.dir}-calls.log`,
      ],
      { cwd: repo.dir, env: terminalEnv(), stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((r) => run.on('exit', r));
    const statePath = join(activeDir(repo.dir), 'WFS-test-acted/.process/iteration-state.json');
    const deadline = Date.now() + 60_000;
    while (!existsSync(statePath) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

    term = spawnInPty(process.execPath, [CLI, 'watch', '-C', repo.dir, '--session', 'WFS-test-acted'], {
      columns: 100,
      rows: 30,
      cwd: repo.dir,
    });
    await term.waitFor('Partial success awaiting approval', 60_000);
    expect(term.screen()).toMatch(/a approves and finishes/);
    term.press('a');
    expect(await exited).toBe(0);
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    expect(state.status).toBe('partial_success');
    expect(state.approved_by).toMatch(/^fixcycle watch \(pid \d+\)$/);
    await term.waitFor('Partial success · pass rate 95%');
    term.press('q');
    await term.exited;
    expect(term.screen()).toContain('fixcycle: ✓ Partial success · pass rate 95% · iteration 1/10 · WFS-test-acted');
  }, 90_000);
});
