import { listlibFeatureRepo } from '../helpers/gen-run.js';
// `fixcycle gen` in a real pseudo-terminal: the phase tree of phases 1-5 full screen. Needs `npm run build`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnInPty, type PtyTerminal } from '../tui/pty-terminal.js';
import { CLI, removeRepos, ROOT } from '../helpers/repo.js';

let term: PtyTerminal | undefined;
afterAll(() => {
  term?.kill();
  removeRepos();
});

describe('fixcycle gen in a terminal', () => {
  it('shows phases 1-5 with the gate rounds, their findings and the coverage line, then the fix loop below', async () => {
    const repo = listlibFeatureRepo();
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gen-agent-'));
    term = spawnInPty(
      process.execPath,
      [CLI, 'gen', '--agent-cmd', `${process.execPath} ${join(ROOT, 'test/fixtures/agents/gen-agent.mjs')} ${agent}`],
      { columns: 140, rows: 50, cwd: repo },
    );
    let screen = await term.waitFor('IMPL-001.3 code validation (L0) round 1: 1 critical finding(s)', 120_000);
    expect(term.buffer()).toBe('alternate');
    expect(screen).toContain('✓ Phase 1-4: Test Generation');
    expect(screen).toMatch(/· critical (export|no-assertion)/);
    screen = await term.waitFor('✓ Success', 180_000);
    // IMPL-002 and phase 5 close once the loop has handed back.
    screen = await term.waitFor(
      (text) => text.includes('✓ IMPL-002 test & fix cycle') && text.includes('✓ Phase 5: Test Cycle Execution'),
    );
    expect(screen).toMatch(/✓ coverage src\/listutil\.js lines 0% → [\d.]+% \(target 80%\)/);
    expect(screen).toMatch(/✓ IMPL-001\.5 quality gate round 2: \d+ kept, \d+ dropped/);
    expect(screen).toMatch(/✓ IMPL-002 test & fix cycle/);
    term.press('q');
    const exit = await term.exited;
    expect(exit.exitCode).toBe(0);
    expect(term.buffer()).toBe('normal');
  }, 300_000);
});
