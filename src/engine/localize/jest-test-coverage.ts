import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_COVERAGE_VAR } from '../runners/commands/mocha-test-coverage.js';

/**
 * A file node preloads (`--require`) into jest's processes so each jest test writes its own coverage, as
 * fixcycle's mocha reporter does (mocha-test-coverage.ts): one V8 coverage file per test in the folder
 * `FIXCYCLE_TEST_COVERAGE` names, for `perTestUnits`. jest-circus hands every test event to the test
 * environment's `handleTestEvent`: the file gives jest's environments one (keeping their own) when their
 * module loads, in the process that runs the tests (a worker, or jest itself in band), and starts V8's precise
 * coverage then, before any test file is compiled. A take when a test starts (before its beforeEach hooks)
 * drops what ran between tests, one when it is done (after its afterEach hooks) is the test's. jest runs the
 * code it transformed, wrapped in its module function, so offsets are into that text, not the file: each
 * project script's own source is written once per process (`Debugger.getScriptSource`, with the inline
 * source map a transform leaves) beside the takes, and the takes name it (`source`).
 */
const JEST_TEST_COVERAGE_SOURCE = `'use strict';
const dir = process.env.${TEST_COVERAGE_VAR};
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
let session = null;
function start() {
  if (session) return true;
  try {
    session = new (require('node:inspector').Session)();
    session.connect();
    session.post('Debugger.enable');
    session.post('Profiler.enable');
    session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    return true;
  } catch (_) {
    session = null;
    return false;
  }
}
const notRun = { functionName: '', ranges: [{ startOffset: 0, endOffset: Number.MAX_SAFE_INTEGER, count: 0 }], isBlockCoverage: true };
const sources = new Map();
const self = require('node:url').pathToFileURL(__filename).href;
function own(url) {
  return (url.startsWith('file:') || url.startsWith('/')) && !url.includes('/node_modules/') && url !== self;
}
function sourceOf(scriptId) {
  if (sources.has(scriptId)) return sources.get(scriptId);
  let file = null;
  session.post('Debugger.getScriptSource', { scriptId }, (err, res) => {
    if (err || !res) return;
    file = path.join(dir, 'sources', process.pid + '-' + scriptId + '.js');
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, res.scriptSource);
    } catch (_) {
      file = null;
    }
  });
  sources.set(scriptId, file);
  return file;
}
function take() {
  let taken = [];
  session.post('Profiler.takePreciseCoverage', (err, res) => {
    if (!err && res) taken = res.result;
  });
  return taken.filter((s) => own(s.url));
}
function titles(test) {
  const names = [];
  for (let at = test; at && at.parent; at = at.parent) names.unshift(at.name);
  return names;
}
let seq = 0;
function done(test) {
  const scripts = take().flatMap((s) => {
    const source = sourceOf(s.scriptId);
    return source ? [{ url: s.url, source, functions: [notRun].concat(s.functions) }] : [];
  });
  const state = test.errors && test.errors.length > 0 ? 'failed' : 'passed';
  const out = path.join(dir, process.pid + '-' + String(seq++).padStart(6, '0'));
  try {
    fs.mkdirSync(out, { recursive: true });
    const about = { title: test.name, fullTitle: titles(test).join(' > '), state };
    fs.writeFileSync(path.join(out, 'coverage.json'), JSON.stringify({ test: about, result: scripts }));
  } catch (_) {}
}
function onEvent(event) {
  if (!session || !event) return;
  if (event.name === 'test_start') take();
  else if (event.name === 'test_done') done(event.test);
}
function isEnvironment(value) {
  return typeof value === 'function' && value.prototype && typeof value.prototype.getVmContext === 'function';
}
function patch(Env) {
  if (!isEnvironment(Env) || Env.prototype.handleTestEvent && Env.prototype.handleTestEvent.fixcycle) return;
  if (!start()) return;
  const theirs = Env.prototype.handleTestEvent;
  const handle = function (event, state) {
    onEvent(event);
    return theirs ? theirs.call(this, event, state) : undefined;
  };
  handle.fixcycle = true;
  Env.prototype.handleTestEvent = handle;
}
if (dir) {
  const load = Module._load;
  Module._load = function (request) {
    const loaded = load.apply(this, arguments);
    if (/jest-environment-/.test(request) && loaded) {
      patch(loaded);
      patch(loaded.default);
      patch(loaded.TestEnvironment);
    }
    return loaded;
  };
}
`;

/** Writes the preload file into `dir`, once before any process starts, and returns its path. */
export function writeJestTestCoverage(dir: string): string {
  const file = join(dir, 'jest-test-coverage.cjs');
  writeFileSync(file, JEST_TEST_COVERAGE_SOURCE);
  return file;
}
