import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../agents/helpers.js';
import { CLI, git, makeRepo, removeRepos, sessionDir } from '../helpers/repo.js';
import { gatewayEnv, missingRealClis, type RealCliName } from './harness.js';
import { startStandIn, type RecordedRequest, type StandIn, type StandInStep } from './stand-in/server.js';
import { workingDirectory } from './stand-in/script.js';

/**
 * fixcycle itself (the built dist/cli.js, a real child process) on a real repository with a real bug, driving
 * the real CLIs, whose model APIs are stand-ins on 127.0.0.1.
 */
const BUGGY = {
  'package.json': '{ "name": "calc", "type": "module", "scripts": { "test": "node --test" } }\n',
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n',
  'test/math.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add, mul } from '../src/math.js';\n\n" +
    "test('adds two numbers', () => assert.equal(add(2, 3), 5));\ntest('adds a negative', () => assert.equal(add(2, -3), -1));\ntest('multiplies', () => assert.equal(mul(2, 3), 6));\n",
};

// What a real model answers an analysis with: terse, one file-level point, a fenced JSON block.
const TERSE_PLAN = [
  'add() subtracts.',
  '',
  '```json',
  JSON.stringify({
    root_causes: ['add() returns a - b instead of a + b'],
    modification_points: ['src/math.js:add:2'],
    affected_tests: ['adds two numbers', 'adds a negative'],
    confidence_score: 0.95,
    approach: 'Return a + b in add().',
  }),
  '```',
].join('\n');

/** The tools a request offers that can edit a file: a fix call, as opposed to an analysis. */
const EDIT_TOOLS = new Set(['Edit', 'Write', 'replace', 'write_file', 'edit', 'apply_patch']);
function offersEditing(req: RecordedRequest): boolean {
  const body = req.body as
    | { tools?: { name?: string; function?: { name?: string }; functionDeclarations?: { name?: string }[] }[] }
    | undefined;
  const names = (body?.tools ?? []).flatMap((t) => [
    t.name,
    t.function?.name,
    ...(t.functionDeclarations ?? []).map((d) => d.name),
  ]);
  return names.some((n) => n !== undefined && EDIT_TOOLS.has(n));
}

/** A model that diagnoses the bug and, when it may edit, fixes it through the CLI's own tools. */
function fixingModel(repo: string): (req: RecordedRequest) => StandInStep {
  return (req) =>
    offersEditing(req)
      ? {
          type: 'edit',
          file: join(workingDirectory(req, repo), 'src/math.js'),
          old: 'return a - b;',
          new: 'return a + b;',
          text: 'Fixed add().',
        }
      : { type: 'text', text: TERSE_PLAN };
}

const standIns: StandIn[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(standIns.splice(0).map((s) => s.close()));
});
afterAll(() => {
  cleanup(...dirs.splice(0));
  removeRepos();
});

async function gateway(script: StandInStep[] | ((req: RecordedRequest) => StandInStep)): Promise<StandIn> {
  const standIn = await startStandIn();
  standIn.script(script);
  standIns.push(standIn);
  return standIn;
}

/** Runs fixcycle headless in `repo` as a user whose CLIs point at the given gateways (one HOME for all). */
function fixcycle(repo: string, agents: string, gateways: Partial<Record<RealCliName, StandIn>>) {
  const home = tempDir('fixcycle-real-home-');
  dirs.push(home);
  let env: Record<string, string> = {};
  for (const [name, standIn] of Object.entries(gateways))
    env = { ...env, ...gatewayEnv(name as RealCliName, standIn, home) };
  // A shell in the repository sets PWD; opencode and others read it.
  env = { ...env, PWD: repo, FORCE_COLOR: '0' };
  return execa(
    process.execPath,
    [CLI, 'run', '--headless', '--agent', agents, '--test-cmd', 'node --test', '--max-iterations', '3'],
    { cwd: repo, env, extendEnv: false, reject: false, timeout: 170_000 },
  );
}

function agentCalls(repo: string): { agent: string; role: string; classification: string; detail?: string }[] {
  return readFileSync(join(sessionDir(repo), '.process/agent-calls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

const modelRequests = (standIn: StandIn): RecordedRequest[] => standIn.requests.filter((r) => r.method === 'POST');

describe.skipIf(missingRealClis('claude') !== undefined)(
  `fixcycle --agent claude on a real bug${missingRealClis('claude') ? ` (${missingRealClis('claude')})` : ''}`,
  () => {
    it(
      'converges: the real claude analyses tersely, edits src/math.js with its own tools, the tests pass and the fix is committed',
      { timeout: 180_000 },
      async () => {
        const repo = makeRepo(null, BUGGY);
        const claude = await gateway(fixingModel(repo));
        const run = await fixcycle(repo, 'claude', { claude });
        expect(run.exitCode, run.stdout + run.stderr).toBe(0);
        expect(readFileSync(join(repo, 'src/math.js'), 'utf8')).toContain('  return a + b;');
        expect(git(repo, 'status', '--porcelain', '--untracked-files=no')).toBe('');
        expect(
          git(repo, 'log', '--format=%s')
            .split('\n')
            .filter((s) => s.startsWith('test-cycle:')),
        ).toHaveLength(1);
        const calls = agentCalls(repo);
        expect(calls.map((c) => `${c.agent} ${c.role} ${c.classification}`)).toEqual([
          'claude analyze ok',
          'claude fix ok',
        ]);
        // The analysis went through the stand-in, and nothing else answered it.
        expect(modelRequests(claude).some((r) => !offersEditing(r))).toBe(true);
        expect(modelRequests(claude).filter(offersEditing).length).toBeGreaterThanOrEqual(3);
      },
    );
  },
);

const CHAIN: RealCliName[] = ['gemini', 'qwen', 'claude'];
describe.skipIf(missingRealClis(...CHAIN) !== undefined)(
  `fixcycle --agent gemini,qwen,claude with gemini rate-limited and qwen unauthorised${missingRealClis(...CHAIN) ? ` (${missingRealClis(...CHAIN)})` : ''}`,
  () => {
    it(
      'falls back to claude within the bound, records rate_limited and auth_error, and converges',
      { timeout: 180_000 },
      async () => {
        const repo = makeRepo(null, BUGGY);
        const gemini = await gateway([{ type: 'error', status: 429 }]);
        const qwen = await gateway([{ type: 'error', status: 401 }]);
        const claude = await gateway(fixingModel(repo));
        const run = await fixcycle(repo, 'gemini,qwen,claude', { gemini, qwen, claude });
        expect(run.exitCode, run.stdout + run.stderr).toBe(0);
        expect(readFileSync(join(repo, 'src/math.js'), 'utf8')).toContain('  return a + b;');
        const calls = agentCalls(repo);
        expect(calls.find((c) => c.agent === 'gemini')).toMatchObject({
          role: 'analyze',
          classification: 'rate_limited',
        });
        expect(calls.find((c) => c.agent === 'qwen')).toMatchObject({ role: 'analyze', classification: 'auth_error' });
        expect(calls.filter((c) => c.agent === 'claude').map((c) => `${c.role} ${c.classification}`)).toEqual([
          'analyze ok',
          'fix ok',
        ]);
        // Each failing API handed over to the next agent within 60 s (plus the next CLI's own start-up).
        const first = (s: StandIn): number => modelRequests(s)[0]!.at;
        expect(modelRequests(gemini).length).toBeGreaterThan(0);
        expect(first(qwen) - first(gemini)).toBeLessThan(70_000);
        expect(first(claude) - first(qwen)).toBeLessThan(70_000);
      },
    );
  },
);
