// Test helpers: run the demo project's real suite and read its real JUnit report, and call the demo agent
// exactly as fixcycle's agent command protocol does (argv, repository root, prompt on stdin, FIXCYCLE_* env).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { XMLParser } from 'fast-xml-parser';

export interface DemoFailure {
  id: string;
  name: string;
  message: string;
  criticality: 'medium';
}

/** The part of test-results.json the demo agent reads. */
export interface DemoResults {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  pass_rate: number;
  failures: DemoFailure[];
}

interface JUnitCase {
  name: string;
  failure?: unknown;
  skipped?: unknown;
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (tag) => tag === 'testsuite' || tag === 'testcase',
});

function failureMessage(failure: unknown): string {
  if (Array.isArray(failure)) return failureMessage(failure[0]);
  if (failure && typeof failure === 'object' && 'message' in failure) return String(failure.message);
  return String(failure ?? '');
}

/** Runs `node --test` with the JUnit reporter in `repo` and turns the report into test results. */
export async function runDemoSuite(repo: string): Promise<DemoResults> {
  const run = await execa('node', ['--test', '--test-reporter=junit'], { cwd: repo, reject: false });
  const report = xml.parse(run.stdout) as {
    testsuites?: { testsuite?: { name: string; testcase?: JUnitCase[] }[]; testcase?: JUnitCase[] };
  };
  const cases: { id: string; test: JUnitCase }[] = [];
  for (const suite of report.testsuites?.testsuite ?? []) {
    for (const test of suite.testcase ?? []) cases.push({ id: `${suite.name} > ${test.name}`, test });
  }
  for (const test of report.testsuites?.testcase ?? []) cases.push({ id: test.name, test });
  if (cases.length === 0)
    throw new Error(`no tests in the JUnit report (exit ${run.exitCode}):\n${run.stderr || run.stdout}`);

  const failures = cases
    .filter(({ test }) => test.failure !== undefined)
    .map(({ id, test }) => ({
      id,
      name: test.name,
      message: failureMessage(test.failure),
      criticality: 'medium' as const,
    }));
  const skipped = cases.filter(({ test }) => test.skipped !== undefined).length;
  const passed = cases.length - failures.length - skipped;
  return {
    total: cases.length,
    passed,
    failed: failures.length,
    skipped,
    pass_rate: Math.round((passed / cases.length) * 10_000) / 100,
    failures,
  };
}

/** A session folder laid out as fixcycle lays it out, inside the repository. */
export async function makeSessionDir(repo: string): Promise<string> {
  const dir = join(repo, '.workflow', 'active', 'WFS-test-demo');
  await mkdir(join(dir, '.process'), { recursive: true });
  await mkdir(join(dir, '.task'), { recursive: true });
  return dir;
}

export interface AgentCallOptions {
  agentCmd: string[];
  repo: string;
  sessionDir: string;
  role: 'analyze' | 'fix';
  iteration: number;
  results: DemoResults;
  /** The fix plan written into the task file as context.fix_strategy (fix role). */
  plan?: unknown;
}

/** Calls the agent once through the protocol: writes test-results.json (and the task for `fix`), then spawns it. */
export async function callAgent(options: AgentCallOptions) {
  const { agentCmd, repo, sessionDir, role, iteration, results } = options;
  const resultsPath = join(sessionDir, '.process', 'test-results.json');
  const taskPath = join(sessionDir, '.task', `IMPL-fix-${iteration}.json`);
  await writeFile(resultsPath, JSON.stringify(results, null, 2));
  if (role === 'fix') {
    const task = {
      id: `IMPL-fix-${iteration}`,
      title: `Fix iteration ${iteration}`,
      status: 'pending',
      meta: { type: 'test-fix-iteration', iteration, max_iterations: 10 },
      context: { failure_context: results.failures, fix_strategy: options.plan },
    };
    await writeFile(taskPath, JSON.stringify(task, null, 2));
  }
  const [command, ...args] = agentCmd;
  return execa(command!, args, {
    cwd: repo,
    input: `You are fixing failing tests (${role}, iteration ${iteration}).\n`,
    reject: false,
    env: {
      FIXCYCLE_ROLE: role,
      FIXCYCLE_SESSION_DIR: sessionDir,
      FIXCYCLE_ITERATION: String(iteration),
      FIXCYCLE_STRATEGY: 'conservative',
      FIXCYCLE_TEST_RESULTS: resultsPath,
      FIXCYCLE_TASK_PATH: taskPath,
      FIXCYCLE_DEMO_DELAY_MS: '0',
    },
  });
}
