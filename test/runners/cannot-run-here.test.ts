import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommandResult } from '../../src/engine/process/run-command.js';
import { runCommand } from '../../src/engine/process/run-command.js';
import { cannotRunMessage, missingHere, skipName } from '../../src/engine/runners/cannot-run-here.js';
import { loadReportParsers } from '../../src/engine/runners/report-access.js';
import { ROOT } from '../helpers/repo.js';

const failed = (outputTail: string, exitCode = 1): CommandResult => ({
  exitCode,
  signal: null,
  timedOut: false,
  aborted: false,
  durationMs: 1,
  outputTail,
});

beforeAll(loadReportParsers);

describe('a part that cannot run here', () => {
  it("@sinonjs/fake-timers 15.3.2's `npm run test-headless` without Chrome: a browser, quoted whole (message and stack)", () => {
    // Recorded from the real project (npm install --ignore-scripts, so puppeteer downloaded no Chrome).
    const output = readFileSync(
      join(ROOT, 'test/fixtures/cannot-run-here/fake-timers-15.3.2-test-headless.out.txt'),
      'utf8',
    );
    const missing = missingHere(failed(output), ROOT);
    expect(missing?.what).toBe('a browser');
    expect(missing?.quote.split('\n')[0]).toMatch(
      /^Error: Could not find Chrome \(ver\. [\d.]+\)\. This can occur if either$/,
    );
    expect(missing?.quote).toMatch(
      / 2\. your cache path is incorrectly configured[\s\S]*For \(2\), check out our guide[\s\S]*at ChromeLauncher\.resolveExecutablePath/,
    );
    expect(cannotRunMessage(['npm', 'run', 'test-headless'], 'run after the tests', missing!)).toMatch(
      /^the test command's part `npm run test-headless` \(run after the tests\) cannot run on this machine: .*needs a browser that is not here.*"skipParts": \["test-headless"\].*\nits own words:\n {2}Error: Could not find Chrome/,
    );
  });

  it("chai 4.3.7's `make test-chrome` (karma, ChromeHeadless) without Chrome: a browser, karma's launcher quoted", () => {
    // Recorded from the real project (Debian's node-chai source, npm install --ignore-scripts): karma's
    // chrome launcher finds no binary and karma exits 1 without running a test.
    const output = readFileSync(
      join(ROOT, 'test/fixtures/cannot-run-here/chai-4.3.7-karma-chrome-headless.out.txt'),
      'utf8',
    );
    const missing = missingHere(failed(output, 2), ROOT);
    expect(missing?.what).toBe('a browser');
    expect(missing?.quote).toMatch(
      /ERROR \[launcher\]: .*No binary for ChromeHeadless browser on your platform\.\n {2}Please, set "CHROME_BIN" env variable\./,
    );
  });

  it("object-inspect's posttest `npx aud --production` where the registry has no audit service: a service, npm's words quoted", () => {
    // Recorded here: this machine's npm registry answers the audit request with 405.
    const output = readFileSync(join(ROOT, 'test/fixtures/cannot-run-here/npm-audit-no-endpoint.out.txt'), 'utf8');
    const missing = missingHere(failed(output), ROOT);
    expect(missing?.what).toBe('a service');
    expect(missing?.quote).toMatch(
      /npm warn audit 405 Method Not Allowed[\s\S]*npm error audit endpoint returned an error/,
    );
  });

  it("object-inspect's posttest `npx aud --production` where aud is not installed: npx cannot ask to download it, a program", () => {
    // Recorded here with `npm run posttest` (npm 11, no terminal).
    const output = readFileSync(join(ROOT, 'test/fixtures/cannot-run-here/npx-canceled-aud.out.txt'), 'utf8');
    const missing = missingHere(failed(output), ROOT);
    expect(missing?.what).toBe('a program');
    expect(missing?.quote).toMatch(
      /npm error npx canceled due to missing packages and no YES option: \["aud@3\.0\.1"\]/,
    );
  });

  it('real commands: a program that is not installed (exit 127, ENOENT) and a refused connection', async () => {
    const shell = await runCommand(['sh', '-c', 'no-such-program-here --flag'], { cwd: ROOT, timeoutMs: 10_000 });
    expect(missingHere(shell, ROOT)).toMatchObject({
      what: 'a program',
      quote: expect.stringMatching(/no-such-program-here: (command )?not found/),
    });
    const spawn = await runCommand(['no-such-program-here'], { cwd: ROOT, timeoutMs: 10_000 });
    expect(missingHere(spawn, ROOT)?.what).toBe('a program');
    const refused = await runCommand(['node', '-e', "require('node:net').connect(9, '127.0.0.1')"], {
      cwd: ROOT,
      timeoutMs: 10_000,
    });
    expect(missingHere(refused, ROOT)).toMatchObject({
      what: 'a connection',
      quote: expect.stringMatching(/Error: connect ECONNREFUSED 127\.0\.0\.1:9/),
    });
    const module = await runCommand(['node', '-e', "require('no-such-package-here')"], {
      cwd: ROOT,
      timeoutMs: 10_000,
    });
    expect(missingHere(module, ROOT)).toMatchObject({
      what: 'a module',
      quote: expect.stringMatching(/Cannot find module 'no-such-package-here'/),
    });
  });

  it('is never a part that passed, failed a test, or misses a file of the project itself', async () => {
    expect(missingHere(failed('Error: connect ECONNREFUSED 127.0.0.1:9', 0), ROOT)).toBeNull();
    // A failing test whose text names a refused connection is the code's to fix.
    const mocha = await runCommand(
      [
        'node',
        join(ROOT, 'node_modules/mocha/bin/mocha.js'),
        '--reporter',
        'spec',
        join(ROOT, 'test/fixtures/cannot-run-here/refused-in-a-test.cjs'),
      ],
      { cwd: ROOT, timeoutMs: 30_000 },
    );
    expect(mocha.exitCode).toBe(1);
    expect(mocha.outputTail).toMatch(/ECONNREFUSED/);
    expect(missingHere(mocha, ROOT)).toBeNull();
    const own = await runCommand(['node', '-e', "require('./no-such-file-of-the-project')"], {
      cwd: ROOT,
      timeoutMs: 10_000,
    });
    expect(missingHere(own, ROOT)).toBeNull();
  });

  it('names a part in skipParts by the script it runs, else by its command line', () => {
    expect(skipName(['npm', 'run', 'test-headless'])).toBe('test-headless');
    expect(skipName(['pnpm', 'run', 'e2e'])).toBe('e2e');
    expect(skipName(['node', 'scripts/wait-for-db.js'])).toBe('node scripts/wait-for-db.js');
  });
});
