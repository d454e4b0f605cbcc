import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getParam, parseQuery, stringifyQuery } from '../src/query.js';

describe('parseQuery', () => {
  it('reads key=value pairs', () => {
    assert.deepEqual(parseQuery('page=2&sort=name'), { page: '2', sort: 'name' });
  });

  it('accepts a leading question mark', () => {
    assert.deepEqual(parseQuery('?q=shoes'), { q: 'shoes' });
  });

  it('collects repeated keys into an array', () => {
    assert.deepEqual(parseQuery('tag=a&tag=b&tag=c'), { tag: ['a', 'b', 'c'] });
  });

  it('decodes plus signs and percent escapes', () => {
    assert.deepEqual(parseQuery('q=hello+world&city=S%C3%A3o%20Paulo'), { q: 'hello world', city: 'São Paulo' });
  });

  it('gives a key without a value an empty string', () => {
    assert.deepEqual(parseQuery('debug&verbose='), { debug: '', verbose: '' });
  });

  it('returns an empty object when there is no query at all', () => {
    assert.deepEqual(parseQuery(), {});
  });
});

describe('getParam', () => {
  it('reads one parameter of a URL', () => {
    assert.equal(getParam('https://shop.example/search?q=lamp&page=3', 'page'), '3');
  });

  it('ignores the fragment', () => {
    assert.equal(getParam('/docs?section=api#install', 'section'), 'api');
  });

  it('returns undefined for a URL without a query', () => {
    assert.equal(getParam('/about', 'q'), undefined);
  });
});

describe('stringifyQuery', () => {
  it('round-trips with parseQuery', () => {
    const params = { q: 'blue shoes', tag: ['sale', 'new'], page: '1' };
    assert.deepEqual(parseQuery(stringifyQuery(params)), params);
  });
});
