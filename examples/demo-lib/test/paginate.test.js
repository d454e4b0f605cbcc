import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { paginate } from '../src/paginate.js';

const numbers = Array.from({ length: 10 }, (_, i) => i + 1);

describe('paginate', () => {
  it('returns the first page', () => {
    assert.deepEqual(paginate(numbers, 1, 3).items, [1, 2, 3]);
  });

  it('returns a page in the middle', () => {
    assert.deepEqual(paginate(numbers, 2, 4).items, [5, 6, 7, 8]);
  });

  it('returns the short last page', () => {
    assert.deepEqual(paginate(numbers, 4, 3).items, [10]);
  });

  it('shows every item exactly once across the pages', () => {
    const { totalPages } = paginate(numbers, 1, 3);
    const seen = [];
    for (let page = 1; page <= totalPages; page += 1) seen.push(...paginate(numbers, page, 3).items);
    assert.deepEqual(seen, numbers);
  });

  it('counts the pages', () => {
    assert.equal(paginate(numbers, 1, 3).totalPages, 4);
    assert.equal(paginate(numbers, 1, 5).totalPages, 2);
    assert.equal(paginate([], 1, 5).totalPages, 1);
  });

  it('tells whether there are previous and next pages', () => {
    assert.deepEqual(
      [paginate(numbers, 1, 5).hasPrev, paginate(numbers, 1, 5).hasNext, paginate(numbers, 2, 5).hasNext],
      [false, true, false],
    );
  });

  it('returns no items past the last page', () => {
    assert.deepEqual(paginate(numbers, 9, 3).items, []);
  });

  it('rejects a page size below one', () => {
    assert.throws(() => paginate(numbers, 1, 0), /perPage must be a positive integer/);
  });
});
