import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFixcycleStore } from '../../src/state/store.js';
import { mirrorSession, type SessionMirror } from '../../src/tui/session-mirror.js';
import { findWatchedSession } from '../../src/tui/watch.js';
import { failure, FIRST, iterationState, results } from './scenarios.js';

let repo: string;
let dir: string;
let mirror: SessionMirror | undefined;
let warnings: (string | null)[];

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'fixcycle-watch-'));
  dir = join(repo, '.workflow/active/WFS-test-watched');
  mkdirSync(join(dir, '.process'), { recursive: true });
  warnings = [];
});
afterEach(() => {
  mirror?.stop();
  rmSync(repo, { recursive: true, force: true });
});

function writeAtomic(name: string, content: string) {
  const path = join(dir, '.process', name);
  writeFileSync(`${path}.tmp`, content);
  renameSync(`${path}.tmp`, path);
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 4000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function start() {
  const store = createFixcycleStore({ flushMs: 1 });
  mirror = mirrorSession({ dir, apply: store.getState().apply, warn: (text) => warnings.push(text), pollMs: 200 });
  return store;
}

describe('mirrorSession', () => {
  it('mirrors the state, the results and the output of a session another process writes', async () => {
    writeAtomic(
      'iteration-state.json',
      JSON.stringify(
        iterationState([FIRST, { iteration: 2, strategy: 'conservative', step: 'fix', result: 'in_progress' }]),
      ),
    );
    writeAtomic('test-results.json', JSON.stringify(results(82.5, [failure('adds', 'AssertionError: 1 !== 2')])));
    writeFileSync(join(dir, '.process/test-output.log'), 'ok 1 - subtracts\nnot ok 2 - adds\n');
    const store = start();
    await until(() => store.getState().output.size === 2, 'the log lines');
    const s = store.getState();
    expect(s.state?.iterations).toHaveLength(2);
    expect(s.results?.pass_rate).toBe(82.5);
    expect(s.phases.analysis.status).toBe('done');
    expect(s.phases.fix.status).toBe('running');
    expect(s.output.slice(0, 2)).toEqual(['ok 1 - subtracts', 'not ok 2 - adds']);

    appendFileSync(join(dir, '.process/test-output.log'), 'ok 3 - multiplies\npartial');
    await until(() => store.getState().output.size === 3, 'the appended line');
    appendFileSync(join(dir, '.process/test-output.log'), ' line\n');
    await until(() => store.getState().output.at(3) === 'partial line', 'the finished line');
  });

  it('keeps the last good state through a half-written or foreign file, and says so in one line', async () => {
    writeAtomic('iteration-state.json', JSON.stringify(iterationState([FIRST])));
    const store = start();
    await until(() => store.getState().state !== null, 'the first state');

    writeFileSync(
      join(dir, '.process/iteration-state.json'),
      '{"session_id": "WFS-test-watched", "iterations": [{"itera',
    );
    await until(() => warnings.length > 0, 'a warning');
    expect(warnings[0]).toBe('iteration-state.json is half-written or not JSON: showing the last good state');
    expect(store.getState().state?.iterations).toHaveLength(1);

    writeAtomic('iteration-state.json', JSON.stringify({ iterations: 'not a list' }));
    await until(() => warnings.length > 1, 'a second warning');
    expect(warnings[1]).toMatch(
      /^iteration-state\.json is not an iteration state \(iterations: .*\): showing the last good state$/,
    );
    expect(store.getState().state?.iterations).toHaveLength(1);

    writeAtomic('iteration-state.json', JSON.stringify(iterationState([FIRST, { iteration: 2, result: 'improved' }])));
    await until(() => store.getState().state?.iterations.length === 2, 'the repaired state');
    expect(warnings.at(-1)).toBeNull();

    writeAtomic('test-results.json', JSON.stringify({ suites: [] }));
    await until(
      () => warnings.some((w) => w?.startsWith('test-results.json is not a test-results file')),
      'the results warning',
    );
  });

  it("shows the current iteration's suspects from its failures record while the results are the failures it ranked", async () => {
    const failures = [failure('adds', 'AssertionError: 1 !== 2')];
    const suspect = {
      file: 'src/math.js',
      function: 'add',
      startLine: 1,
      endLine: 3,
      score: 0.8,
      lines: [2],
      scores: { change: 1, stack: 1 },
      evidence: ['change: line 2 changed since abc1234'],
    };
    writeAtomic(
      'iteration-state.json',
      JSON.stringify(
        iterationState([FIRST, { iteration: 2, strategy: 'conservative', step: 'analyze', result: 'in_progress' }]),
      ),
    );
    writeAtomic('test-results.json', JSON.stringify(results(82.5, failures)));
    const store = start();
    await until(() => store.getState().results !== null, 'the results');
    expect(store.getState().suspects).toEqual([]);
    // Written by the loop once localization is done, as localize-step writes it: the results and what ranked them.
    writeAtomic(
      'iteration-2-failures.json',
      JSON.stringify({
        ...results(82.5, failures),
        localization: {
          suspects: [suspect, { file: 42 }],
          used: ['change', 'stack'],
          notes: ['coverage: not measured (turned off)'],
          changeBase: 'abc1234',
          durationMs: 900,
        },
      }),
    );
    await until(() => store.getState().suspects.length > 0, 'the suspects');
    expect(store.getState().suspects).toEqual([suspect]);
    expect(store.getState().localization).toMatchObject({
      iteration: 2,
      used: ['change', 'stack'],
      notes: ['coverage: not measured (turned off)'],
    });
    // The re-test changed the failures: the record no longer speaks of them.
    writeAtomic('test-results.json', JSON.stringify(results(90, [failure('subtracts', 'AssertionError: 3 !== 1')])));
    await until(() => store.getState().results?.pass_rate === 90, 'the new results');
    await mirror!.refresh();
    expect(store.getState().suspects).toEqual([]);
    expect(store.getState().localization).toBeNull();
  });

  it('starts the output over when the log is rewritten', async () => {
    writeFileSync(join(dir, '.process/test-output.log'), 'first run line 1\nfirst run line 2\n');
    const store = start();
    await until(() => store.getState().output.size === 2, 'the first run');
    writeFileSync(join(dir, '.process/test-output.log'), 're-test\n');
    await until(() => store.getState().output.total === 4, 'the rewritten log');
    expect(store.getState().outputLabel).toBe('test output of a new run');
    expect(store.getState().output.at(3)).toBe('re-test');
  });

  it('shows the outcome and the approval a finished session asks for', async () => {
    writeAtomic('test-results.json', JSON.stringify(results(96.5, [failure('tooltip', 'AssertionError', 'low')])));
    writeAtomic('iteration-state.json', JSON.stringify(iterationState([FIRST], { status: 'awaiting_approval' })));
    const store = start();
    await until(() => store.getState().awaitingApproval !== null, 'the approval');
    expect(store.getState().awaitingApproval?.passRate).toBe(96.5);
    writeAtomic(
      'iteration-state.json',
      JSON.stringify(iterationState([FIRST], { status: 'failed', outcome_reason: 'max iterations reached' })),
    );
    await until(() => store.getState().done !== null, 'the outcome');
    expect(store.getState().done).toMatchObject({ outcome: 'failure', reason: 'max iterations reached', exitCode: 1 });
  });

  it("reads the design's own shape, written by another tool", async () => {
    writeAtomic(
      'iteration-state.json',
      JSON.stringify({
        session_id: 'WFS-test-user-auth',
        current_iteration: 1,
        iterations: [
          {
            iteration: 1,
            test_results: { total: 10, passed: 7, failed: 3, failures: ['t1', 't2', 't3'] },
            result: 'partial_success',
          },
        ],
        status: 'active',
        next_action: 'execute_fix_task',
      }),
    );
    const store = start();
    await until(() => store.getState().state !== null, 'the state');
    expect(store.getState().state?.iterations[0]?.pass_rate).toBe(70);
  });
});

describe('findWatchedSession', () => {
  it('finds the latest session, or one named with or without its prefix', async () => {
    writeAtomic('iteration-state.json', '{}');
    expect(await findWatchedSession(repo)).toMatchObject({ ok: true, id: 'WFS-test-watched' });
    expect(await findWatchedSession(repo, 'watched')).toMatchObject({ ok: true, id: 'WFS-test-watched' });
  });

  it('says in one line why there is nothing to watch', async () => {
    expect(await findWatchedSession(repo, 'other')).toEqual({
      ok: false,
      error: `no session other under ${join(repo, '.workflow/active')}: sessions there: WFS-test-watched`,
    });
    const empty = mkdtempSync(join(tmpdir(), 'fixcycle-watch-empty-'));
    try {
      expect(await findWatchedSession(empty)).toEqual({
        ok: false,
        error: `no session under ${join(empty, '.workflow/active')}: start one with fixcycle run, or pass -C <repo>`,
      });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
