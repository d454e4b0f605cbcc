import { describe, expect, it } from 'vitest';
import { completionWithPartsLeftOut } from '../../src/engine/decisions/parts-left-out.js';

const headless = { name: 'test-headless', command: ['npm', 'run', 'test-headless'], needs: 'a browser' };

describe('completionWithPartsLeftOut', () => {
  it('says a success on what ran as converged here, never as the success of the whole command, naming the part and why', () => {
    const ended = completionWithPartsLeftOut({ outcome: 'success', reason: 'every test passes' }, [headless]);
    expect(ended).toEqual({
      outcome: 'failure',
      convergedHere: true,
      reason:
        'converged on what runs here (every test passes); not run: the test command\'s part `npm run test-headless` (it needs a browser that is not here): install what it needs and run the tests again, or leave it out with "skipParts": ["test-headless"] in fixcycle.config.json',
    });
  });

  it('keeps any other end, naming the part; changes nothing while the loop goes on or when no part was left out', () => {
    expect(
      completionWithPartsLeftOut({ outcome: 'failure', reason: '10 iteration(s) done' }, [headless]),
    ).toMatchObject({
      outcome: 'failure',
      reason: expect.stringMatching(
        /^10 iteration\(s\) done; not run: the test command's part `npm run test-headless`/,
      ),
    });
    const going = { outcome: 'continue' as const, reason: 'pass rate 50% < 95%' };
    expect(completionWithPartsLeftOut(going, [headless])).toBe(going);
    const done = { outcome: 'success' as const, reason: 'every test passes' };
    expect(completionWithPartsLeftOut(done, [])).toBe(done);
  });

  it('names a step inside the command (a task runner target) apart: it cannot be skipped, only replaced by --test-cmd', () => {
    const inside = { name: 'make test', command: ['make', 'test'], needs: 'a browser', inside: true };
    const ended = completionWithPartsLeftOut({ outcome: 'success', reason: 'every test passes' }, [inside]);
    expect(ended).toEqual({
      outcome: 'failure',
      convergedHere: true,
      reason:
        'converged on what runs here (every test passes); not run: a step inside `make test` failed (it needs a browser that is not here), after its tests passed: install what it needs and run the tests again, or pass --test-cmd with the steps that run here',
    });
    expect(completionWithPartsLeftOut({ outcome: 'success', reason: 'ok' }, [inside, headless]).reason).toMatch(
      /pass --test-cmd with the steps that run here; not run: the test command's part `npm run test-headless`/,
    );
  });
});
