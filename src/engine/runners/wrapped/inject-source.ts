/** The preload file fixcycle writes into a run's report folder and passes as `NODE_OPTIONS=--require`. */
export const INJECT_FILE = 'fixcycle-inject.cjs';
/** The variable naming the folder the injected reports go to. */
export const INJECT_DIR_VAR = 'FIXCYCLE_INJECT_DIR';
/** Where the injected mocha reporter writes, when set (else beside itself). */
export const MOCHA_REPORT_VAR = 'FIXCYCLE_MOCHA_REPORT';

/**
 * A task runner (hereby, make, just) or a monorepo runner (lerna, npm workspaces) starts the test runner
 * itself, with its own flags: fixcycle cannot add its reporter to that command line. Every node process the
 * command starts loads this file first (NODE_OPTIONS is passed down by npm, lerna, make and the rest); in a
 * process that is a test runner's CLI (mocha, jest, vitest) it adds fixcycle's reporter to the arguments
 * before the CLI reads them, writes `<runner>-<pid>.json` and `<runner>-<pid>.meta.json` (the folder it ran
 * in, its package) into the run's folder, and marks the environment so the runner's own children (mocha's
 * _mocha, jest's and vitest's workers) are left alone. Any other process only pays for two requires.
 */
export const INJECT_SOURCE = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const dir = process.env.${INJECT_DIR_VAR};
function real(file) {
  try { return fs.realpathSync(file); } catch (_) { return file; }
}
function runnerOf(file) {
  const f = real(file).split(path.sep).join('/');
  if (/\\/mocha\\/bin\\/(?:_mocha|mocha|mocha\\.js)$/.test(f) || /\\/mocha\\/lib\\/cli\\/cli\\.js$/.test(f)) return 'mocha';
  if (/\\/(?:jest|jest-cli)\\/bin\\/jest(?:\\.js)?$/.test(f)) return 'jest';
  if (/\\/vitest\\/vitest\\.mjs$/.test(f)) return 'vitest';
  return null;
}
// Options fixcycle replaces: [name, takes a value].
const OWN = {
  mocha: [['--reporter', true], ['-R', true], ['--reporter-option', true], ['--reporter-options', true], ['-O', true]],
  jest: [['--json', false], ['--outputFile', true]],
  vitest: [['--reporter', true], ['--outputFile', true]],
};
function strip(args, own) {
  const out = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    const hit = own.find(([name]) => word === name || word.startsWith(name + '=') || word.startsWith(name + '.'));
    if (!hit) { out.push(word); continue; }
    if (hit[1] && word === hit[0]) i++;
  }
  return out;
}
const runner = dir && !process.env.FIXCYCLE_INJECTED && process.argv[1] ? runnerOf(process.argv[1]) : null;
if (runner) {
  process.env.FIXCYCLE_INJECTED = '1';
  const stem = path.join(dir, runner + '-' + process.pid);
  fs.writeFileSync(stem + '.meta.json', JSON.stringify({ runner, cwd: process.cwd(), argv: process.argv.slice(2) }));
  const args = strip(process.argv.slice(2), OWN[runner]);
  if (runner === 'mocha') {
    process.env.${MOCHA_REPORT_VAR} = stem + '.json';
    args.push('--reporter', path.join(dir, 'fixcycle-mocha-reporter.cjs'));
  } else if (runner === 'jest') {
    args.push('--json', '--outputFile=' + stem + '.json');
  } else {
    args.push('--reporter=default', '--reporter=json', '--outputFile.json=' + stem + '.json');
  }
  process.argv.splice(2, process.argv.length - 2, ...args);
}
`;
