import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../../src/engine/agents/adapters/index.js';
import type { AgentRole } from '../../src/engine/agents/agent.js';
import { resolveAgents } from '../../src/engine/agents/resolve.js';
import type { ResolvedAgent } from '../../src/engine/agents/run-agent.js';

/** The stand-ins for the AI CLIs, put first on PATH by the tests. */
export const FAKE_CLIS = fileURLToPath(new URL('../fixtures/fake-clis/', import.meta.url));

export const MATH_SOURCE =
  'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';
export const MATH_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add, mul } from '../src/math.js';

test('adds two numbers', () => {
  assert.equal(add(2, 3), 5);
});

test('multiplies two numbers', () => {
  assert.equal(mul(2, 3), 6);
});
`;

/** A temp folder removed by `cleanup`. */
export function tempDir(prefix = 'fixcycle-agents-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function cleanup(...dirs: string[]): void {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A real git repository with a small node:test suite (src/math.js, test/math.test.js) committed on main. */
export function makeRepo(files: Record<string, string> = {}): string {
  const dir = tempDir('fixcycle-repo-');
  const all = {
    'package.json': '{ "name": "demo", "type": "module", "scripts": { "test": "node --test" } }\n',
    'src/math.js': MATH_SOURCE,
    'test/math.test.js': MATH_TEST,
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'initial');
  return dir;
}

/** The environment of an agent call: the stand-ins first on PATH, a call log, and the given FAKE_* settings. */
export function fakeEnv(log: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${FAKE_CLIS}${delimiter}${process.env.PATH ?? ''}`, FAKE_CLI_LOG: log, ...extra };
}

/** One logged call of a stand-in. */
export interface LoggedCall {
  cli: string;
  argv: string[];
  stdin: string;
  cwd: string;
  role: AgentRole;
  env_role: string | null;
}

export function readLog(log: string): LoggedCall[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoggedCall);
}

/** A built-in agent as `--agent <name>` resolves it. */
export function builtIn(name: string): ResolvedAgent {
  const [agent] = resolveAgents({ agentNames: [name] }, {});
  return agent!;
}
