// startTui and fixcycle watch in a real pseudo-terminal: the alternate screen is always given back
// (quit, crash, SIGTERM), resizes are followed live, and watch mirrors a session on disk. Needs a build.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnInPty, type PtyTerminal } from './pty-terminal.js';
import { failure, FIRST, iterationState, results } from './scenarios.js';

const DIST = resolve(import.meta.dirname, '../../dist');
const work = mkdtempSync(join(tmpdir(), 'fixcycle-tui-term-'));
let term: PtyTerminal | undefined;
afterEach(() => term?.kill());
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A driver that opens the TUI on a store fed by a script, then does `then` (JavaScript) once it is up. */
function driver(then: string): string {
  const path = join(work, `driver-${Math.random().toString(36).slice(2)}.mjs`);
  const url = (p: string) => pathToFileURL(join(DIST, p)).href;
  writeFileSync(
    path,
    `import { startTui } from ${JSON.stringify(url('tui/start.js'))};
import { createFixcycleStore } from ${JSON.stringify(url('state/store.js'))};
const store = createFixcycleStore();
const apply = store.getState().apply;
apply({ type: 'session', sessionId: 'WFS-test-driven', sessionDir: ${JSON.stringify(work)}, repo: ${JSON.stringify(work)}, chain: ['claude'], testCommand: 'node --test', resumed: false });
apply({ type: 'strategy', iteration: 1, strategy: 'surgical', reason: 'scripted' });
apply({ type: 'phase', phase: 'test', status: 'running', iteration: 0 });
apply({ type: 'output', lines: Array.from({ length: 200 }, (_, i) => 'scripted line ' + (i + 1)) });
const tui = startTui({ store, controls: null });
setTimeout(() => { ${then} }, 300);
await tui.waitUntilExit();
process.stdout.write('left the TUI\\n');
`,
  );
  return path;
}

function start(script: string, columns = 100, rows = 30) {
  if (!existsSync(join(DIST, 'tui/start.js')))
    throw new Error('dist/tui/start.js is missing: build first with npx tsc -p tsconfig.build.json');
  term = spawnInPty(process.execPath, [script], { columns, rows, cwd: work });
  return term;
}

describe('the alternate screen', () => {
  it('is entered, and left on quit with the normal screen as it was', async () => {
    const t = start(driver(''));
    await t.waitFor('scripted line 200');
    expect(t.buffer()).toBe('alternate');
    t.press('q');
    expect((await t.exited).exitCode).toBe(0);
    expect(t.buffer()).toBe('normal');
    expect(t.screen()).toContain('left the TUI');
  });

  it('is left before a crash is printed, so the error is readable', async () => {
    const t = start(driver("throw new Error('scripted crash');"));
    const exit = await t.exited;
    expect(exit.exitCode).toBe(1);
    expect(t.buffer()).toBe('normal');
    expect(t.screen()).toContain('Error: scripted crash');
  });

  it('is left on SIGTERM, and the process still ends by the signal', async () => {
    const t = start(driver(''));
    await t.waitFor('scripted line 200');
    t.kill('SIGTERM');
    const exit = await t.exited;
    expect(exit.signal).toBe(15);
    expect(t.buffer()).toBe('normal');
  });

  it('follows a resize live, switching to the compact layout and back', async () => {
    const t = start(driver(''), 120, 40);
    await t.waitFor('Phases');
    t.resize(60, 20);
    // Ink redraws the old layout once at the new size before React catches up: wait for the settled frame.
    const narrow = await t.waitFor(
      (s) => !s.includes('Phases') && s.split('\n')[0]!.includes('[surgical]') && s.includes('scripted line 200'),
    );
    const rows = narrow.split('\n');
    expect(rows).toHaveLength(20);
    expect(rows[0]).toContain('[surgical]');
    expect(rows[19]).toBe('');
    t.resize(120, 40);
    await t.waitFor('Phases');
  });
});

describe('fixcycle watch', () => {
  it('mirrors a session another process drives, and says what needs that process', async () => {
    const repo = join(work, 'watched-repo');
    const dir = join(repo, '.workflow/active/WFS-test-elsewhere');
    mkdirSync(join(dir, '.process'), { recursive: true });
    const write = (name: string, value: unknown) =>
      writeFileSync(join(dir, '.process', name), typeof value === 'string' ? value : JSON.stringify(value));
    write(
      'iteration-state.json',
      iterationState([FIRST, { iteration: 2, strategy: 'aggressive', step: 'fix', result: 'in_progress' }], {
        selected_strategy: 'aggressive',
        strategy_reason: 'similar failures above 80%',
      }),
    );
    write('test-results.json', results(82.5, [failure('adds', 'AssertionError: 1 !== 2')]));
    write('test-output.log', 'ok 1 - subtracts\nnot ok 2 - adds\n');

    term = spawnInPty(
      process.execPath,
      [join(DIST, 'cli.js'), 'watch', '-C', repo, '--session', 'WFS-test-elsewhere'],
      { columns: 120, rows: 40, cwd: repo },
    );
    let screen = await term.waitFor('not ok 2 - adds');
    expect(screen).toContain('fixcycle watch');
    expect(screen).toContain('[aggressive] similar failures above 80%');
    expect(screen).toMatch(/Iteration 2: Fix \(pass: 82.5%, aggressive\)/);
    expect(screen).toContain(' · watch · ');

    writeFileSync(join(dir, '.process/test-output.log'), 'ok 1 - subtracts\nnot ok 2 - adds\nre-test: ok 2 - adds\n');
    screen = await term.waitFor('re-test: ok 2 - adds');

    term.press('p');
    // Nothing drives the session (no process holds its lock): the key says the command that goes on with it.
    screen = await term.waitFor('No fixcycle process drives WFS-test-elsewhere now');

    write('iteration-state.json', '{"session_id": "WFS-test-elsewhere", "iterations": [');
    screen = await term.waitFor('iteration-state.json is half-written or not JSON: showing the last good state');
    expect(screen).toMatch(/Iteration 2: Fix/);

    term.press('q');
    expect((await term.exited).exitCode).toBe(0);
    expect(term.buffer()).toBe('normal');
  });

  it('says in one line when the session asked for does not exist (with none asked for, it follows)', async () => {
    const empty = join(work, 'empty-repo');
    mkdirSync(empty, { recursive: true });
    term = spawnInPty(process.execPath, [join(DIST, 'cli.js'), 'watch', '-C', empty, '--session', 'nope'], {
      columns: 120,
      rows: 10,
      cwd: empty,
    });
    const exit = await term.exited;
    expect(exit.exitCode).toBe(2);
    expect(term.screen().replace(/\n/g, '')).toMatch(
      /fixcycle watch: no session nope under .*: start one with fixcycle run/,
    );
  });
});
