import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { slugify, truncate } from '../src/slug.js';

describe('slugify', () => {
  it('lowercases and joins words with dashes', () => {
    assert.equal(slugify('Hello World'), 'hello-world');
  });

  it('drops accents', () => {
    assert.equal(slugify('Crème Brûlée'), 'creme-brulee');
  });

  it('collapses punctuation and trims dashes at the ends', () => {
    assert.equal(slugify('  --Release notes: v2.0 (beta)!--  '), 'release-notes-v2-0-beta');
  });
});

describe('truncate', () => {
  it('leaves short text alone', () => {
    assert.equal(truncate('short', 10), 'short');
  });

  it('cuts at a word boundary and adds an ellipsis', () => {
    assert.equal(truncate('The quick brown fox jumps', 12), 'The quick…');
  });

  it('cuts inside a long word when there is no space', () => {
    assert.equal(truncate('Supercalifragilistic', 6), 'Super…');
  });
});
