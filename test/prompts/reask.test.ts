import { describe, expect, it } from 'vitest';
import { renderReaskBlock } from '../../src/engine/prompts/reask.js';
import type { FixHistoryEntry } from '../../src/engine/session/schema.js';

const entry = (iteration: number, cause: string, fields: Partial<FixHistoryEntry> = {}): FixHistoryEntry => ({
  iteration,
  agent: 'claude',
  strategy: 'conservative',
  root_causes: [cause],
  modification_points: ['lib/parse.js'],
  approach: 'trim the input first',
  files_changed: ['lib/parse.js'],
  pass_rate_before: 60,
  pass_rate_after: 60,
  outcome: 'no_change',
  at: '2026-01-01T00:00:00Z',
  ...fields,
});

describe('the re-ask of a stuck analysis (templates/reask.v1.md)', () => {
  it('names the cause and what each fix built on it did, leaving out other attempts', () => {
    const cause = 'parse() drops the last field of a quoted line';
    const text = renderReaskBlock(cause, [
      entry(1, 'the tokenizer mis-counts escaped quotes'),
      entry(2, cause),
      entry(3, 'parse() drops the last field of a quoted line.', {
        outcome: 'regressed_rolled_back',
        pass_rate_after: 40,
        reason: 'pass rate fell 20 points',
        approach: 'rewrite the loop',
        files_changed: ['lib/parse.js', 'lib/util.js'],
      }),
    ]);
    expect(text).toBe(`## Asked again: this root cause was already tried
Your answer names the same root cause as the last 2 iterations:
"${cause}"

The fixes built on it did not make the failing tests pass:
- iteration 2: no change (pass rate 60% -> 60%)
  approach: trim the input first
  changed: lib/parse.js
- iteration 3: regressed rolled back (pass rate 60% -> 40%); pass rate fell 20 points
  approach: rewrite the loop
  changed: lib/parse.js, lib/util.js

Look again before you answer. Find a different root cause if there is one. If you are sure it is this one,
say why the earlier fixes did not work and give a plan that differs from them (other modification points, or
another approach). Answer with the same JSON object as asked above.`);
  });
});
