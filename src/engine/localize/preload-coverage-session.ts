import { TEST_COVERAGE_VAR } from '../runners/commands/mocha-test-coverage.js';

/**
 * The start of a file fixcycle preloads into a runner's processes to take V8's precise coverage per test (tape's,
 * ava's): the folder the takes go to, an inspector session with precise coverage on (null when fixcycle did not
 * ask, or the inspector is taken), and the "not run" entry that zeroes a script's lines before its counts.
 */
export const PRELOAD_COVERAGE_SESSION = `'use strict';
const dir = process.env.${TEST_COVERAGE_VAR};
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
let session = null;
if (dir) {
  try {
    session = new (require('node:inspector').Session)();
    session.connect();
    session.post('Profiler.enable');
    session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  } catch (_) {
    session = null;
  }
}
const notRun = { functionName: '', ranges: [{ startOffset: 0, endOffset: Number.MAX_SAFE_INTEGER, count: 0 }], isBlockCoverage: true };`;
