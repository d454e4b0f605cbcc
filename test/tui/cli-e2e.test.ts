// The built CLI in a real pseudo-terminal, driving a real loop on a temp git repository with a real
// `node --test` suite and a scripted agent speaking the agent command protocol. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnInPty, type PtyTerminal } from './pty-terminal.js';
import { AGENT, SHOP_FILES } from './shop-scenario.js';
import { tempRepo } from './temp-repo.js';
import { activeDir } from '../../src/engine/session/paths.js';

const CLI = resolve(import.meta.dirname, '../../dist/cli.js');

const repo = tempRepo('fixcycle-tui-e2e-');
let term: PtyTerminal | undefined;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with npx tsc -p tsconfig.build.json`);
  repo.commit('initial', SHOP_FILES);
  writeFileSync(join(repo.dir, '..', `${repo.dir.split('/').pop()}-agent.mjs`), AGENT);
});
afterAll(() => {
  term?.kill();
  repo.cleanup();
  for (const suffix of ['-agent.mjs', '-calls.log'])
    rmSync(join(repo.dir, '..', `${repo.dir.split('/').pop()}${suffix}`), { force: true });
});

const agentPath = () => join(repo.dir, '..', `${repo.dir.split('/').pop()}-agent.mjs`);

/** iteration-state.json of the one session in the repository. */
function sessionState() {
  const active = activeDir(repo.dir);
  const ids = readdirSync(active).filter((n) => n.startsWith('WFS-test-'));
  expect(ids).toHaveLength(1);
  return JSON.parse(readFileSync(join(active, ids[0]!, '.process/iteration-state.json'), 'utf8'));
}

describe('fixcycle run in a terminal', () => {
  it('shows the loop full screen; a approves, r+y rolls back, q quits, and the session files agree', async () => {
    const log = join(repo.dir, '..', `${repo.dir.split('/').pop()}-calls.log`);
    term = spawnInPty(
      process.execPath,
      [CLI, 'run', '--test-cmd', 'node --test', '--agent-cmd', `${process.execPath} ${agentPath()} ${log}`],
      { columns: 120, rows: 40, cwd: repo.dir },
    );

    // Iteration 1 fixes total(): 95% with only the cosmetic (low) failure, so the loop asks.
    let screen = await term.waitFor('Partial success awaiting approval: pass rate 95%');
    expect(term.buffer()).toBe('alternate');
    expect(screen).toContain('[conservative]');
    expect(screen).toMatch(/1\s+conservative\s+95%\s+\+15\s+19\/1.*improved\s+[0-9a-f]{7}/);
    expect(screen).toMatch(/low\s+1×\s+AssertionError/);
    expect(term.rows()[39]).toBe('');

    // r asks first; y rolls iteration 1 back, the loop re-tests and fixes again in iteration 2.
    term.press('r');
    await term.waitFor('Roll back iteration 1');
    term.press('y');
    screen = await term.waitFor(/2\s+\w+\s+95%.*improved/);
    expect(screen).toMatch(/1\s+conservative\s+95%.*rolled back by user/);
    screen = await term.waitFor('Partial success awaiting approval: pass rate 95%');

    // a approves: the session ends as a partial success.
    term.press('a');
    screen = await term.waitFor('✓ Partial success · pass rate 95% · exit code 0');
    expect(screen).toContain('q quit');

    // q quits at once now that the loop is done; the normal screen comes back.
    term.press('q');
    const exit = await term.exited;
    expect(exit.exitCode).toBe(0);
    expect(term.buffer()).toBe('normal');

    const state = sessionState();
    expect(state.status).toBe('partial_success');
    expect(state.iterations.map((i: { iteration: number; result: string }) => [i.iteration, i.result])).toEqual([
      [1, 'rolled_back'],
      [2, 'improved'],
    ]);
    const subjects = repo.git('log', '--format=%s').split('\n');
    expect(subjects[0]).toMatch(/^test-cycle: iteration 2 - /);
    expect(subjects[1]).toMatch(/^test-cycle: rollback iteration 1 - requested by user/);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['analyze 1', 'fix 1', 'analyze 2', 'fix 2']);
  });
});
