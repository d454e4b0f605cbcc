import type { Failure, TestCase } from '../../src/engine/types.js';

/** The failed tests of a run as the loop records them, the input localization takes. */
export const failuresOf = (tests: readonly TestCase[]): Failure[] =>
  tests
    .filter((t) => t.status === 'failed')
    .map((t) => ({
      id: t.id,
      name: t.name,
      file: t.file,
      message: t.message ?? '',
      stack: t.stack,
      criticality: 'medium',
      criticality_source: 'default',
    }));
