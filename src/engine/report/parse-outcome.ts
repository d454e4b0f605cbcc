import type { NormalizedResult } from '../types.js';

/** Report formats fixcycle reads. */
export type ReportFormat =
  | 'junit'
  | 'tap'
  | 'node-tap'
  | 'vitest-json'
  | 'jest-json'
  | 'mocha-json'
  | 'go-json'
  | 'pytest-json'
  | 'uvu'
  | 'libtest-json';

/** A parser never throws: it returns a result or says, in one line, why the report cannot be used. */
export type ParseOutcome = { ok: true; result: NormalizedResult } | { ok: false; error: string };
