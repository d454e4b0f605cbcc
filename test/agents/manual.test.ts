import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixWithChain } from '../../src/engine/agents/chain.js';
import { extractPlan } from '../../src/engine/agents/plan.js';
import { runAgent, type ResolvedAgent } from '../../src/engine/agents/run-agent.js';
import { builtIn, cleanup, makeRepo, tempDir } from './helpers.js';

const FAILURES = {
  total: 2,
  passed: 1,
  failed: 1,
  skipped: 0,
  pass_rate: 50,
  errors: [],
  failures: [
    {
      id: 'test/math.test.js::adds two numbers',
      name: 'adds two numbers',
      file: 'test/math.test.js',
      message: 'Expected values to be strictly equal:\n\n-1 !== 5\n',
      criticality: 'medium',
      criticality_source: 'default',
    },
  ],
};

let repo: string;
let session: string;
let env: Record<string, string>;

beforeEach(() => {
  repo = makeRepo();
  session = tempDir('fixcycle-manual-');
  mkdirSync(join(session, '.process'), { recursive: true });
  const results = join(session, '.process', 'test-results.json');
  writeFileSync(results, JSON.stringify(FAILURES));
  env = { FIXCYCLE_TEST_RESULTS: results, FIXCYCLE_SESSION_DIR: session };
});
afterEach(() => cleanup(repo, session));

/** The manual agent with a short quiet time, so the test does not wait a whole second. */
function manual(quietMs = 300): ResolvedAgent {
  const agent = builtIn('manual');
  return { ...agent, spec: { ...agent.spec, command: ['--quiet-ms', String(quietMs)] } };
}

/** Starts a manual fix and resolves once it tells the user it is waiting. */
function startFix(agent: ResolvedAgent, signal?: AbortSignal) {
  const shown: string[] = [];
  let ready!: () => void;
  const waiting = new Promise<void>((resolve) => (ready = resolve));
  const call = runAgent(agent, {
    role: 'fix',
    prompt: 'fix it',
    cwd: repo,
    env,
    timeoutMs: 30_000,
    signal,
    onLines: (lines) => {
      shown.push(...lines);
      if (lines.some((l) => l.includes('Waiting for your changes'))) ready();
    },
  });
  return { call, waiting, shown };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the manual agent', () => {
  it('shows what fails, waits while the user edits, and ends once the saved files are quiet', async () => {
    const { call, waiting, shown } = startFix(manual());
    await waiting;
    expect(shown.join('\n')).toContain('✗ test/math.test.js::adds two numbers: Expected values to be strictly equal:');

    // A person: the editor's swap file appears, then two saves a moment apart.
    writeFileSync(join(repo, 'src', '.math.js.swp'), 'swap');
    writeFileSync(join(repo, 'src', 'math.js'), 'export function add(a, b) {\n  return a +');
    await sleep(150);
    const lastSave = Date.now();
    writeFileSync(
      join(repo, 'src', 'math.js'),
      'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n',
    );

    const result = await call;
    expect(result).toMatchObject({
      agent: 'manual',
      role: 'fix',
      classification: 'ok',
      exitCode: 0,
      detail: 'you changed 1 file: src/math.js',
    });
    expect(Date.now() - lastSave).toBeGreaterThanOrEqual(300);
  });

  it('does not take an opened file (only the editor swap file) for a fix, and stops when the user aborts', async () => {
    const abort = new AbortController();
    const { call, waiting } = startFix(manual(100), abort.signal);
    await waiting;
    writeFileSync(join(repo, 'src', '.math.js.swp'), 'swap');
    await sleep(400);
    abort.abort();
    expect(await call).toMatchObject({ classification: 'failed', detail: 'stopped by the user' });
  });

  it('works as the fix agent of a chain, the way the loop calls it', async () => {
    let ready!: () => void;
    const waiting = new Promise<void>((resolve) => (ready = resolve));
    const onLines = (lines: string[]): void =>
      void (lines.some((l) => l.includes('Waiting for your changes')) && ready());
    const attempt = fixWithChain(
      [manual()],
      { prompt: 'fix it', cwd: repo, env, timeoutMs: 30_000, onLines },
      async () => undefined,
    );
    await waiting;
    writeFileSync(join(repo, 'src', 'fixed.js'), 'export {};\n');
    const done = await attempt;
    expect(done.agent).toBe('manual');
    expect(done.calls[0]!.detail).toBe('you changed 1 file: src/fixed.js');
  });

  it('turns the failures into a plan with confidence 1 when analysing', async () => {
    const result = await runAgent(builtIn('manual'), { role: 'analyze', prompt: '', cwd: repo, env, timeoutMs: 5000 });
    expect(result.classification).toBe('ok');
    const plan = extractPlan(result.finalText);
    expect(plan.ok && plan.plan).toEqual({
      root_causes: ['test/math.test.js::adds two numbers: Expected values to be strictly equal:'],
      modification_points: ['test/math.test.js:adds two numbers:'],
      affected_tests: ['test/math.test.js::adds two numbers'],
      confidence_score: 1,
      approach: expect.stringMatching(/^Manual: you fix the code yourself/),
    });
  });

  it('fails the analysis clearly without test results', async () => {
    const result = await runAgent(builtIn('manual'), {
      role: 'analyze',
      prompt: '',
      cwd: repo,
      env: {},
      timeoutMs: 5000,
    });
    expect(result).toMatchObject({
      classification: 'failed',
      detail: expect.stringMatching(/FIXCYCLE_TEST_RESULTS is not set/),
    });
  });
});
