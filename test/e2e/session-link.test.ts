// The `.workflow` link is out of the working tree while the user's command runs: a pane in another process keeps
// following the session meanwhile, a run killed then loses nothing and the next start puts the link back, and a
// plain `.workflow` folder is never moved. Needs `npm run build`.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnInPty, terminalEnv, type PtyTerminal } from '../tui/pty-terminal.js';
import { agentCmd, CLI, execa, git, makeRepo, pathKind, removeRepos, runCli, scenario } from '../helpers/repo.js';

afterAll(removeRepos);

// The `.workflow` link of the user's own tree, taken out while the user's command runs there: in place (a session
// in its own worktree runs the command there, where its link is handled the same way).
let term: PtyTerminal | undefined;
afterEach(() => {
  term?.kill();
  term = undefined;
});

interface Held {
  repo: string;
  /** Written by the user's command once it runs: what it saw of `.workflow`. */
  held: string;
  /** The user's command ends once this exists. */
  release: string;
}

/** A passing project whose test command, after its tests, holds until the test releases it, saying what it sees. */
function holdingRepo(extra: Record<string, string> = {}): Held {
  const signals = mkdtempSync(join(tmpdir(), 'fixcycle-held-'));
  const held = join(signals, 'held.json');
  const release = join(signals, 'release');
  const hold = `const { existsSync, lstatSync, writeFileSync } = require('node:fs');
let seen = 'nothing';
try { const s = lstatSync('.workflow'); seen = s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'folder' : 'file'; } catch {}
writeFileSync(${JSON.stringify(held)}, JSON.stringify({ workflow: seen }));
console.log('hold: the command is running');
const until = Date.now() + 30000;
while (!existsSync(${JSON.stringify(release)}) && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
`;
  const repo = makeRepo(null, {
    'package.json': `${JSON.stringify({ name: 'p', private: true, scripts: { test: 'node --test && node hold.js' } }, null, 2)}\n`,
    'hold.js': hold,
    'src/math.js': 'exports.add = (a, b) => a + b;\n',
    'test/math.test.js':
      'const test = require("node:test");\nconst assert = require("node:assert");\nconst { add } = require("../src/math.js");\n\ntest("adds", () => assert.strictEqual(add(2, 3), 5));\n',
    ...extra,
  });
  return { repo, held, release };
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const away = (repo: string): string[] =>
  readdirSync(join(repo, '.git', 'fixcycle')).filter((n) => n.startsWith('.workflow-link-away-'));

describe("the session link while the user's command runs", { timeout: 120_000 }, () => {
  it('a pane in another process, started before the first run, follows the session while the link is out of the tree', async () => {
    const { repo, held, release } = holdingRepo();
    const agent = scenario({ analyze: [], fix: [] });
    term = spawnInPty(process.execPath, [CLI, 'watch', '-C', repo], {
      columns: 120,
      rows: 30,
      cwd: repo,
      env: terminalEnv(),
    });
    await term.waitFor('Waiting for a session in');
    const run = runCli(repo, [
      'run',
      '--headless',
      '--in-place',
      '--session-name',
      'held',
      '--agent-cmd',
      agentCmd(agent.path),
    ]);
    await until(() => existsSync(held), 'the user command to run');
    expect(JSON.parse(readFileSync(held, 'utf8'))).toEqual({ workflow: 'nothing' });
    // The pane shows the session, and the line the command printed while the link was away; it never lost it.
    const screen = await term.waitFor('hold: the command is running');
    expect(screen).toContain('WFS-test-held');
    expect(screen).not.toMatch(/was deleted/);
    expect(pathKind(join(repo, '.workflow'))).toBe('nothing');
    writeFileSync(release, '');
    const done = await run;
    expect(done.exitCode, done.stdout + done.stderr).toBe(0);
    expect(term.screen()).not.toMatch(/was deleted/);
    expect(pathKind(join(repo, '.workflow'))).toBe('link');
    expect(away(repo)).toEqual([]);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('a run killed while the link is out loses nothing; a pane started next puts the link back, and the session resumes', async () => {
    const { repo, held, release } = holdingRepo();
    const agent = scenario({ analyze: [], fix: [] });
    const run = execa(
      process.execPath,
      [CLI, 'run', '--headless', '--in-place', '--session-name', 'crash', '--agent-cmd', agentCmd(agent.path)],
      { cwd: repo, reject: false },
    );
    await until(() => existsSync(held), 'the user command to run');
    // The link waits in the git directory, named after the run; git sees nothing.
    expect(away(repo)).toEqual([`.workflow-link-away-${run.pid}`]);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    run.kill('SIGKILL');
    await run;
    writeFileSync(release, '');
    expect(pathKind(join(repo, '.workflow'))).toBe('nothing');
    const kept = join(repo, '.git/fixcycle/.workflow/active/WFS-test-crash');
    expect(existsSync(join(kept, 'workflow-session.json'))).toBe(true);
    expect(existsSync(join(kept, '.process/test-output.log'))).toBe(true);
    term = spawnInPty(process.execPath, [CLI, 'watch', '-C', repo], {
      columns: 120,
      rows: 30,
      cwd: repo,
      env: terminalEnv(),
    });
    await until(() => pathKind(join(repo, '.workflow')) === 'link', 'the pane to put the link back', 10_000);
    expect(away(repo)).toEqual([]);
    term.kill();
    await term.exited;
    const resumed = await runCli(repo, [
      'run',
      '--headless',
      '--in-place',
      '--resume-session',
      'crash',
      '--agent-cmd',
      agentCmd(agent.path),
    ]);
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    expect(agent.calls()).toEqual([]);
    expect(pathKind(join(repo, '.workflow'))).toBe('link');
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('Ctrl-C while the link is out: the run puts it back as it ends', async () => {
    const { repo, held } = holdingRepo();
    const agent = scenario({ analyze: [], fix: [] });
    const run = execa(
      process.execPath,
      [CLI, 'run', '--headless', '--in-place', '--session-name', 'interrupted', '--agent-cmd', agentCmd(agent.path)],
      { cwd: repo, reject: false },
    );
    await until(() => existsSync(held), 'the user command to run');
    expect(pathKind(join(repo, '.workflow'))).toBe('nothing');
    run.kill('SIGINT');
    await run;
    expect(pathKind(join(repo, '.workflow'))).toBe('link');
    expect(away(repo)).toEqual([]);
    expect(existsSync(join(repo, '.workflow/active/WFS-test-interrupted/.process/iteration-state.json'))).toBe(true);
  });

  it('a reader that goes away (run --headless | head -1) stops the run at its next line as Ctrl-C does: no EPIPE crash, the link back, the session resumable', async () => {
    // A process learns that its reader left only when it next writes (as with SIGPIPE), so the project fails and
    // the analysis hangs: the run has lines to write after the reader leaves, and cannot finish on its own first.
    const failing =
      'const test = require("node:test");\nconst assert = require("node:assert");\nconst { add } = require("../src/math.js");\n\ntest("adds", () => assert.strictEqual(add(2, 3), 6));\n';
    const { repo, held, release } = holdingRepo({
      'package.json': `${JSON.stringify({ name: 'p', private: true, scripts: { test: 'node hold.js && node --test' } }, null, 2)}\n`,
      'test/math.test.js': failing,
    });
    const agent = scenario({ analyze: [{ sleepMs: 60_000 }], fix: [] });
    const run = execa(
      process.execPath,
      [CLI, 'run', '--headless', '--in-place', '--session-name', 'piped', '--agent-cmd', agentCmd(agent.path)],
      { cwd: repo, reject: false, buffer: false, stdout: 'pipe', stderr: 'pipe', env: { FORCE_COLOR: '0' } },
    );
    let stderr = '';
    run.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let ended = false;
    void run.finally(() => (ended = true));
    // The reader takes the first line and leaves, as `head -1` does; then the user's command is let go.
    await new Promise<void>((resolve) => run.stdout!.once('data', () => resolve()));
    run.stdout!.destroy();
    await until(() => ended || existsSync(held), 'the user command to run or the run to stop');
    writeFileSync(release, '');
    const result = await Promise.race([run, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
    expect(result, 'the run stops instead of waiting for the hanging analysis').not.toBeNull();
    expect(result!.exitCode, stderr).toBe(130);
    expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(stderr).toMatch(/stopping after the running step is killed; the session stays resumable/);
    expect(pathKind(join(repo, '.workflow'))).toBe('link');
    expect(away(repo)).toEqual([]);
    expect(existsSync(join(repo, '.workflow/active/WFS-test-piped/.process/iteration-state.json'))).toBe(true);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(agent.calls().filter((call) => call.includes(' fix '))).toEqual([]);
  });

  it('a command whose work is done ends with its own exit code when its reader is already gone, not killed by its own SIGTERM', async () => {
    const repo = makeRepo(null, {
      'package.json': '{"scripts":{"test":"node --test"}}\n',
      'test/ok.test.js': "require('node:test')('ok', () => {});\n",
    });
    const agent = scenario({ analyze: [], fix: [] });
    expect(
      (await runCli(repo, ['run', '--headless', '--in-place', '--agent-cmd', agentCmd(agent.path)])).exitCode,
    ).toBe(0);
    // `fixcycle status | true`, with the reader gone before the first line is written.
    const status = execa(process.execPath, [CLI, 'status'], {
      cwd: repo,
      reject: false,
      buffer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    status.stdout!.destroy();
    let stderr = '';
    status.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = await status;
    expect(ended.signal, stderr).toBeUndefined();
    expect(ended.exitCode, stderr).toBe(0);
    expect(stderr).toBe('');
  });

  it('a plain .workflow folder (a Claude-Code-Workflow session) is never moved: the command sees it as before, and the session goes in it', async () => {
    const { repo, held, release } = holdingRepo();
    mkdirSync(join(repo, '.workflow/active/WFS-ccw'), { recursive: true });
    writeFileSync(join(repo, '.workflow/active/WFS-ccw/workflow-session.json'), '{"session_id":"WFS-ccw"}\n');
    writeFileSync(release, '');
    const agent = scenario({ analyze: [], fix: [] });
    const run = await runCli(repo, [
      'run',
      '--headless',
      '--in-place',
      '--session-name',
      'plain',
      '--agent-cmd',
      agentCmd(agent.path),
    ]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(held, 'utf8'))).toEqual({ workflow: 'folder' });
    expect(pathKind(join(repo, '.workflow'))).toBe('folder');
    expect(readFileSync(join(repo, '.workflow/active/WFS-ccw/workflow-session.json'), 'utf8')).toBe(
      '{"session_id":"WFS-ccw"}\n',
    );
    expect(existsSync(join(repo, '.workflow/active/WFS-test-plain/.process/iteration-state.json'))).toBe(true);
    expect(existsSync(join(repo, '.git/fixcycle/.workflow'))).toBe(false);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });
});
