import { readFile } from 'node:fs/promises';
import { throughLink } from '../session/paths.js';
import { writeJsonAtomic, writeTextAtomic } from '../session/atomic.js';
import type { TestAnalysis } from './analysis-schema.js';
import { node, type GenContext, type GenOptions } from './gen-context.js';
import { genPaths } from './paths.js';
import { readAnalysis, readContextPackage } from './phase-analysis.js';
import type { ContextPackage } from './phase-context.js';
import { genTaskSchema, type GenTask } from './task-schema.js';

export const TASK_IDS = ['IMPL-001', 'IMPL-001.3', 'IMPL-001.5', 'IMPL-002'] as const;
export type TaskId = (typeof TASK_IDS)[number];

function tasks(pkg: ContextPackage, analysis: TestAnalysis, o: GenOptions, sessionDir: string): GenTask[] {
  const files = pkg.changed_files.map((f) => f.file);
  const testDir = pkg.conventions.locations[0] ?? 'test';
  const read = (step: string, file: string, out: string) => ({ step, command: `Read(${file})`, output_to: out });
  const ctxRead = read('load_context', `${sessionDir}/.process/test-context-package.json`, 'test_context');
  const analysisRead = read('load_analysis', `${sessionDir}/.process/TEST_ANALYSIS_RESULTS.md`, 'test_requirements');
  return [
    {
      id: 'IMPL-001',
      title: 'Test Understanding & Generation',
      status: 'pending',
      meta: { type: 'test-gen', agent: '@code-developer', role: 'generate' },
      context: {
        requirements: analysis.requirements.map((r) => `[${r.layer}] ${r.target}: ${r.cases.join('; ')}`),
        focus_paths: [...files, testDir],
        acceptance: [
          'only test files added or changed',
          `tests follow the project's conventions (${pkg.conventions.naming}, ${pkg.conventions.assertion_style})`,
        ],
        depends_on: [],
        layers: o.layers,
        findings: [],
      },
      flow_control: {
        pre_analysis: [ctxRead, analysisRead],
        implementation_approach: [
          {
            step: 1,
            title: 'Write the tests',
            description: `Write ${o.layers.join('/')} tests for the requirements where the project keeps its tests (${testDir})`,
          },
        ],
        target_files: [testDir],
      },
    },
    {
      id: 'IMPL-001.3',
      title: 'Code Validation Gate - AI Error Detection',
      status: 'pending',
      meta: { type: 'code-validation', agent: '@test-fix-agent' },
      context: {
        requirements: [
          'L0: typecheck and lint where configured',
          'imports resolve and named imports exist',
          'no placeholder code, no mocks in source, every test asserts, no constant assertions, no focused or skipped tests',
        ],
        focus_paths: files,
        acceptance: ['zero critical findings', 'zero compilation errors'],
        depends_on: ['IMPL-001'],
        max_rounds: o.maxL0Rounds,
      },
      flow_control: {
        pre_analysis: [],
        implementation_approach: [
          {
            step: 1,
            title: 'L0 checks',
            description: 'Run the checks; send findings back to IMPL-001 (generate) up to the round limit',
          },
        ],
        target_files: [],
      },
    },
    {
      id: 'IMPL-001.5',
      title: 'Test Quality Gate - Static Analysis & Coverage',
      status: 'pending',
      meta: { type: 'test-quality-review', agent: '@test-fix-agent' },
      context: {
        requirements: [
          `each new test collected and giving the same result ${o.stabilityRuns} runs in a row`,
          'each new test covers lines the rest of the suite does not',
          `changed lines: ${o.coverageLines}% lines, ${o.coverageBranches}% branches`,
        ],
        focus_paths: files,
        acceptance: [
          'no flaky test kept',
          `${o.keepRedundant ? 'redundant tests reported' : 'redundant tests dropped'}`,
          'coverage targets met or the gap reported by file and line',
        ],
        depends_on: ['IMPL-001.3'],
        coverage_targets: { lines: o.coverageLines, branches: o.coverageBranches },
        coverage: pkg.coverage.measured ? pkg.coverage.how : `not measured: ${pkg.coverage.reason}`,
      },
      flow_control: {
        pre_analysis: [],
        implementation_approach: [
          {
            step: 1,
            title: 'Stability, uniqueness, coverage',
            description: 'Run each new test repeatedly, measure what it adds, compare with the targets',
          },
        ],
        target_files: [],
      },
    },
    {
      id: 'IMPL-002',
      title: 'Test Execution & Fix Cycle',
      status: 'pending',
      meta: { type: 'test-fix', agent: '@test-fix-agent' },
      context: {
        requirements: [
          'run the full suite',
          'fix the code until the tests pass; the generated tests may be fixed too, the existing ones are protected',
        ],
        focus_paths: files,
        acceptance: ['pass rate 100%, or >= 95% with only low-criticality failures (approved)'],
        depends_on: ['IMPL-001.5'],
        max_iterations: o.maxIterations,
      },
      flow_control: {
        pre_analysis: [],
        implementation_approach: [{ step: 1, title: 'Fix loop', description: 'fixcycle run on this session' }],
        target_files: files,
        exit_conditions: {
          success: 'all_tests_pass',
          failure: 'max_iterations_reached',
          max_iterations: o.maxIterations,
        },
      },
    },
  ] as GenTask[];
}

function implPlan(pkg: ContextPackage, analysis: TestAnalysis, o: GenOptions): string {
  return `# IMPL_PLAN: ${pkg.session_id}

Input: ${pkg.input.description} (${pkg.input.mode} mode${pkg.input.source_session_id ? `, from ${pkg.input.source_session_id}` : ''})
Change: ${pkg.change.described_as}
Runner: ${pkg.runner.name}

## Test strategy
- L0 static analysis (IMPL-001.3): zero critical issues, zero compilation errors
- Layers generated: ${o.layers.join(', ')} (${analysis.requirements.length} requirement(s))
- Quality gate (IMPL-001.5): ${o.stabilityRuns} identical runs per test, coverage gain per test, ${o.coverageLines}% lines / ${o.coverageBranches}% branches of the changed lines
- Fix cycle (IMPL-002): at most ${o.maxIterations} iterations

## Tasks
1. IMPL-001 Test Understanding & Generation (generate)
2. IMPL-001.3 Code Validation Gate (fixcycle L0 checks)
3. IMPL-001.5 Test Quality Gate (fixcycle)
4. IMPL-002 Test Execution & Fix Cycle (the fix loop)

## Summary of the analysis
${analysis.summary}
`;
}

function todoList(): string {
  return `# TODO_LIST

- [ ] IMPL-001: Test Understanding & Generation
- [ ] IMPL-001.3: Code Validation Gate - AI Error Detection
- [ ] IMPL-001.5: Test Quality Gate - Static Analysis & Coverage
- [ ] IMPL-002: Test Execution & Fix Cycle
`;
}

/** Phase 4, by fixcycle: IMPL_PLAN.md, TODO_LIST.md and the four task files, each validated against the task shape. */
export async function generateTasks(ctx: GenContext): Promise<string> {
  const dir = ctx.session.paths.dir;
  const paths = genPaths(dir);
  node(ctx, 'tasks', 'running', 'writing IMPL_PLAN.md, TODO_LIST.md and the task files');
  const pkg = await readContextPackage(dir);
  const analysis = await readAnalysis(dir);
  // The task files name the session as `.workflow` does, as Claude-Code-Workflow's do.
  for (const task of tasks(pkg, analysis, ctx.options, throughLink(ctx.repo.root, dir))) {
    const valid = genTaskSchema.parse(task);
    await writeJsonAtomic(paths.task(valid.id), valid);
  }
  await writeTextAtomic(paths.implPlan, implPlan(pkg, analysis, ctx.options));
  await writeTextAtomic(paths.todoList, todoList());
  node(ctx, 'tasks', 'done', '4 tasks: IMPL-001, IMPL-001.3, IMPL-001.5, IMPL-002');
  return summaryText(pkg, ctx.options, dir);
}

/** The design's summary after phase 4. */
function summaryText(pkg: ContextPackage, o: GenOptions, dir: string): string {
  return [
    'Test-fix workflow created successfully!',
    `Input: ${pkg.input.raw ?? '(the change on this branch)'}`,
    `Mode: ${pkg.input.mode}`,
    `Test Session: ${pkg.session_id}`,
    'Tasks Created: IMPL-001 (generate), IMPL-001.3 (code validation), IMPL-001.5 (quality gate), IMPL-002 (test & fix)',
    `Quality Thresholds: zero critical L0 findings; ${o.coverageLines}% line / ${o.coverageBranches}% branch coverage of the changed lines; max ${o.maxIterations} fix iterations`,
    `Review artifacts: ${dir}/IMPL_PLAN.md, TODO_LIST.md, .process/TEST_ANALYSIS_RESULTS.md`,
  ].join('\n');
}

/** Reads a task file, updates it, validates and writes it back. */
export async function updateTask(sessionDir: string, id: TaskId, change: (task: GenTask) => void): Promise<void> {
  const path = genPaths(sessionDir).task(id);
  const task = genTaskSchema.parse(JSON.parse(await readFile(path, 'utf8')));
  change(task);
  await writeJsonAtomic(path, genTaskSchema.parse(task));
}
