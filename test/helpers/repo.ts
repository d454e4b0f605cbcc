import { cpSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execa, execaSync } from 'execa';
import { activeDir } from '../../src/engine/session/paths.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'dist/cli.js');
export const SCRIPTED_AGENT = join(ROOT, 'test/fixtures/agents/scripted-agent.mjs');

const made: string[] = [];

/** A fresh git repository with one commit holding `fixture` (a folder under test/fixtures) and `extra` files. */
export function makeRepo(fixture: string | null, extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-test-'));
  made.push(dir);
  if (fixture) cpSync(join(ROOT, 'test/fixtures', fixture), dir, { recursive: true });
  for (const [file, content] of Object.entries(extra)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  const git = (...args: string[]) => execaSync('git', args, { cwd: dir });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'fixcycle test');
  git('config', 'user.email', 'test@fixcycle.invalid');
  git('config', 'commit.gpgsign', 'false');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return dir;
}

export function removeRepos(): void {
  // A child that outlived its test (a pty's process group, a loop's agent) may still write for a moment.
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

/** A scenario file for the scripted agent, in its own folder (calls.log and prompts land beside it). */
export function scenario(steps: { analyze?: unknown[]; fix?: unknown[] }): {
  path: string;
  dir: string;
  calls(): string[];
  prompt(name: string, role: string, n: number): string;
} {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-agent-'));
  made.push(dir);
  const path = join(dir, 'scenario.json');
  writeFileSync(path, JSON.stringify(steps));
  return {
    path,
    dir,
    calls: () => {
      try {
        return readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n').filter(Boolean);
      } catch {
        return [];
      }
    },
    prompt: (name, role, n) => readFileSync(join(dir, `prompt-${name}-${role}-${n}.txt`), 'utf8'),
  };
}

/** The --agent-cmd line that runs the scripted agent on a scenario. */
export function agentCmd(scenarioPath: string, name = 'agent'): string {
  return `${process.execPath} ${SCRIPTED_AGENT} ${scenarioPath} ${name}`;
}

/** Runs the built CLI as a user would, headless. */
export function runCli(cwd: string, args: string[], options: { timeoutMs?: number } = {}) {
  return execa(process.execPath, [CLI, ...args], {
    cwd,
    reject: false,
    timeout: options.timeoutMs ?? 120_000,
    env: { FORCE_COLOR: '0' },
  });
}

export function git(cwd: string, ...args: string[]): string {
  return execaSync('git', args, { cwd }).stdout;
}

/** The session's real folder: during a test run `.workflow` is out of the tree, and this finds it all the same. */
export function sessionDir(repo: string): string {
  const id = execaSync('ls', [activeDir(repo)])
    .stdout.trim()
    .split('\n')[0]!;
  return join(activeDir(repo), id);
}

/** What is at `path`, not following a link: 'link', 'folder', 'file' or 'nothing'. */
export function pathKind(path: string): string {
  try {
    const s = lstatSync(path);
    return s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'folder' : 'file';
  } catch {
    return 'nothing';
  }
}

export function readJson<T = any>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function state(repo: string): any {
  return readJson(join(sessionDir(repo), '.process/iteration-state.json'));
}

export { execa };
