import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, parseDuration } from '../src/duration.js';

describe('formatDuration', () => {
  it('prints milliseconds under a second', () => {
    assert.equal(formatDuration(450), '450ms');
  });

  it('leaves out units that are zero', () => {
    assert.equal(formatDuration(3_600_000 + 5_000), '1h 5s');
  });

  it('rounds to the nearest second', () => {
    assert.equal(formatDuration(61_600), '1m 2s');
  });
});

describe('parseDuration', () => {
  it('reads several units', () => {
    assert.equal(parseDuration('1h 30m'), 5_400_000);
  });

  it('reads units without spaces', () => {
    assert.equal(parseDuration('2d4h'), 187_200_000);
  });

  it('rejects text it cannot read', () => {
    assert.throws(() => parseDuration('soon'), SyntaxError);
  });
});
