import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMoney, splitEvenly, toCents } from '../src/money.js';

describe('formatMoney', () => {
  it('formats a price with cents', () => {
    assert.equal(formatMoney(19.99), '$19.99');
  });

  it('formats whole amounts with two decimals', () => {
    assert.equal(formatMoney(10), '$10.00');
  });

  it('groups thousands', () => {
    assert.equal(formatMoney(1234.5), '$1,234.50');
  });

  it('puts the sign before the symbol', () => {
    assert.equal(formatMoney(-2.5), '-$2.50');
  });

  it('formats euros and pounds', () => {
    assert.equal(formatMoney(0.29, { currency: 'EUR' }), '€0.29');
    assert.equal(formatMoney(4.35, { currency: 'GBP' }), '£4.35');
  });

  it('keeps amounts that binary floating point cannot represent exactly', () => {
    assert.equal(formatMoney(1.15), '$1.15');
  });

  it('rejects an unknown currency', () => {
    assert.throws(() => formatMoney(1, { currency: 'XYZ' }), /unknown currency XYZ/);
  });
});

describe('toCents', () => {
  it('converts a decimal amount to whole cents', () => {
    assert.equal(toCents(0.57), 57);
  });

  it('rejects values that are not numbers', () => {
    assert.throws(() => toCents(Number.NaN), TypeError);
    assert.throws(() => toCents('12'), TypeError);
  });
});

describe('splitEvenly', () => {
  it('gives the extra cents to the first shares', () => {
    assert.deepEqual(splitEvenly(1000, 3), [334, 333, 333]);
  });

  it('never loses a cent', () => {
    const shares = splitEvenly(9999, 7);
    assert.equal(shares.reduce((sum, share) => sum + share, 0), 9999);
  });
});
