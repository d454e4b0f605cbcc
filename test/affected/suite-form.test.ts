import { describe, expect, it } from 'vitest';
import { inSuiteForm } from '../../src/engine/affected/suite-form.js';

describe('inSuiteForm', () => {
  it('keeps files the full run reported tests from, and leaves out a type test it never ran (tap + tsd)', () => {
    expect(
      inSuiteForm(['test/basic.test.ts', 'test/types/index.test-d.ts'], ['test/basic.test.ts', 'test/other.test.ts']),
    ).toEqual({
      files: ['test/basic.test.ts'],
      leftOut: ['test/types/index.test-d.ts'],
      compiled: [],
    });
  });

  it('runs a source test as the compiled file the full run ran (uuid: src/test/v7.test.ts -> dist/esm/test/v7.test.js)', () => {
    const suite = ['dist/esm/test/v7.test.js', 'dist/esm/test/v4.test.js', 'dist/esm/test/validate.test.js'];
    expect(inSuiteForm(['src/test/v7.test.ts'], suite)).toEqual({
      files: ['dist/esm/test/v7.test.js'],
      leftOut: [],
      compiled: [['src/test/v7.test.ts', 'dist/esm/test/v7.test.js']],
    });
  });

  it('takes every compiled form the full run ran (esm and cjs), and never a file of the same name elsewhere', () => {
    const suite = ['dist/esm/test/v7.test.js', 'dist/cjs/test/v7.test.js', 'dist/esm/other/v7.test.js'];
    expect(inSuiteForm(['src/test/v7.test.ts'], suite).files).toEqual([
      'dist/cjs/test/v7.test.js',
      'dist/esm/test/v7.test.js',
    ]);
  });
});
