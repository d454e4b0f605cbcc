import { execFile, spawnSync } from 'node:child_process';
import { analyseCommandLine, type RunnerCall } from './analyse-command.js';
import { lifecycleParts } from './lifecycle-scripts.js';
import { findOnPath, type ProjectFacts } from './project.js';

/** A runner found in a project, and what it was found from. */
export interface Detection {
  call: RunnerCall;
  /** `scripts.test: "vitest run"`, `vitest.config.ts`, `jest in devDependencies`, `go.mod`... */
  detectedFrom: string;
}

// What `npm init` writes: a test script that only fails.
const NPM_PLACEHOLDER = /no test specified/;

const JS_CONFIG_EXTENSIONS = ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'];

/** Config files that name their runner, most specific first. */
const CONFIG_FILES: { runner: RunnerCall['runner']; files: string[] }[] = [
  {
    runner: 'vitest',
    files: [...withExtensions('vitest.config'), ...withExtensions('vitest.workspace'), 'vitest.workspace.json'],
  },
  { runner: 'jest', files: [...withExtensions('jest.config'), 'jest.config.json'] },
  {
    runner: 'mocha',
    files: [
      '.mocharc.js',
      '.mocharc.cjs',
      '.mocharc.mjs',
      '.mocharc.json',
      '.mocharc.jsonc',
      '.mocharc.yaml',
      '.mocharc.yml',
    ],
  },
  { runner: 'ava', files: [...withExtensions('ava.config')] },
];

/** JS runners recognised by dependency, in the order a project with several most likely means. */
const DEPENDENCY_RUNNERS: RunnerCall['runner'][] = ['vitest', 'jest', 'mocha', 'ava', 'tape', 'tap', 'uvu'];

/**
 * Finds the project's test runner: its test script when that leads to a runner, then runner config files,
 * then runner dependencies, then Python, Go and Rust project files. Null when nothing says.
 */
export function detectRunner(project: ProjectFacts): Detection | null {
  const script = project.scripts.test;
  if (script !== undefined && !NPM_PLACEHOLDER.test(script)) {
    const found = analyseCommandLine(script, project);
    if (!('unknown' in found))
      return { call: withTestLifecycle(found, project), detectedFrom: `scripts.test in package.json ("${script}")` };
  }
  for (const { runner, files } of CONFIG_FILES) {
    const file = files.find((name) => project.exists(name));
    if (file) return { call: bareCall(runner), detectedFrom: file };
  }
  if (project.jestConfigInPackage) return { call: bareCall('jest'), detectedFrom: '"jest" config in package.json' };
  for (const runner of DEPENDENCY_RUNNERS) {
    if (project.dependencies.has(runner))
      return { call: bareCall(runner), detectedFrom: `${runner} in package.json dependencies` };
  }
  const pytestFrom = pytestSignal(project);
  if (pytestFrom)
    return {
      call: { ...bareCall('pytest'), launcher: packageRootLauncher(project) ?? pytestLauncher() },
      detectedFrom: pytestFrom,
    };
  if (project.exists('go.mod')) return { call: bareCall('go'), detectedFrom: 'go.mod' };
  if (project.exists('Cargo.toml')) return { call: bareCall('cargo'), detectedFrom: 'Cargo.toml' };
  return null;
}

/** The test script as `npm test` runs it: `pretest` first, `posttest` after it when it passed. */
function withTestLifecycle(call: RunnerCall, project: ProjectFacts): RunnerCall {
  const around = lifecycleParts(project, 'test');
  if (around.setup.length === 0 && around.after.length === 0) return call;
  return { ...call, setup: [...around.setup, ...call.setup], after: [...(call.after ?? []), ...around.after] };
}

/** The default way to start a runner that no script describes. */
export function bareCall(runner: RunnerCall['runner']): RunnerCall {
  const launchers: Record<RunnerCall['runner'], string[]> = {
    vitest: ['vitest'],
    jest: ['jest'],
    mocha: ['mocha'],
    tape: ['tape'],
    tap: ['tap'],
    ava: ['ava'],
    uvu: ['uvu'],
    'node-test': ['node'],
    pytest: ['pytest'],
    go: ['go', 'test'],
    cargo: ['cargo', 'test'],
  };
  // node-tap 12 reads TAP from stdin when it is given no files.
  const args: Partial<Record<RunnerCall['runner'], string[]>> = {
    tape: ['test/**/*.js'],
    tap: ['test/**/*.js'],
    'node-test': ['--test'],
    go: ['./...'],
  };
  return { runner, launcher: launchers[runner], args: args[runner] ?? [], env: {}, wrappers: [], setup: [], trail: [] };
}

/**
 * A root that is itself a package (hyperlink, pyflakes: Debian's installed copy checked out as itself) holds modules
 * named like libraries (`hypothesis.py`): `python -m pytest` would put them first on sys.path, and a test's
 * `import hypothesis` would get the project's own. The `pytest` script leaves them `pkg.module`. Null elsewhere.
 */
export function packageRootLauncher(project: ProjectFacts): string[] | null {
  return project.exists('__init__.py') && findOnPath('pytest') ? ['pytest'] : null;
}

const HAS_PYTEST = "import importlib.util, sys; sys.exit(importlib.util.find_spec('pytest') is None)";
const PYTHONS = ['python3', 'python'];
// One answer per process: the probe starts a Python (through a pyenv shim, most of a second).
let launcher: string[] | undefined;
let probing: Promise<string[]> | undefined;

/**
 * `python3 -m pytest` where python3 runs: unlike the `pytest` script it puts the project root on sys.path,
 * as tox and an installed package do, so a project's tests import the project (toolz, sortedcontainers).
 */
function pytestLauncher(): string[] {
  if (launcher) return launcher;
  for (const python of PYTHONS) {
    if (!findOnPath(python)) continue;
    if (spawnSync(python, ['-c', HAS_PYTEST], { stdio: 'ignore', timeout: 10_000 }).status === 0)
      return (launcher = [python, '-m', 'pytest']);
  }
  return (launcher = ['pytest']);
}

/**
 * The same answer without blocking: a run asks while git takes its snapshot (resolveRunner awaits this before
 * detecting a Python project), so the Python it starts does not hold up everything else.
 */
export function findPytestLauncher(): Promise<string[]> {
  probing ??= (async () => {
    for (const python of PYTHONS) {
      if (!findOnPath(python)) continue;
      const ok = await new Promise<boolean>((done) =>
        execFile(python, ['-c', HAS_PYTEST], { timeout: 10_000 }, (error) => done(!error)),
      );
      if (ok) return (launcher ??= [python, '-m', 'pytest']);
    }
    return (launcher ??= ['pytest']);
  })();
  return probing;
}

export function pytestSignal(project: ProjectFacts): string | null {
  // pytest >= 8.1 reads .pytest.ini first: a project that keeps its config out of sight still names pytest.
  if (project.exists('.pytest.ini')) return '.pytest.ini';
  if (project.exists('pytest.ini')) return 'pytest.ini';
  if (/^\[tool\.pytest/m.test(project.read('pyproject.toml'))) return '[tool.pytest] in pyproject.toml';
  if (/^\[tool:pytest\]/m.test(project.read('setup.cfg'))) return '[tool:pytest] in setup.cfg';
  if (/^\[pytest\]/m.test(project.read('tox.ini'))) return '[pytest] in tox.ini';
  if (project.exists('conftest.py')) return 'conftest.py';
  if (/\bpytest\b/.test(project.read('pyproject.toml'))) return 'pytest in pyproject.toml';
  // Projects that test through tox or setup.py: pytest also runs their unittest tests.
  if (project.exists('tox.ini')) return 'tox.ini (pytest runs its tests)';
  if (project.exists('setup.py')) return 'setup.py (pytest runs its tests)';
  // No config at all (a package's source as installed, its tests inside): pytest collects test_*.py by default.
  for (const folder of ['tests', 'test', '.'])
    if ((project.list?.(folder) ?? []).some((f) => /^test_\w*\.py$/.test(f)))
      return `${folder === '.' ? '' : `${folder}/`}test_*.py (pytest's default collection)`;
  return null;
}

/** Why no runner was found, naming what the project has: one line for RunnerResolutionError. */
export function explainNoRunner(project: ProjectFacts): string {
  const script = project.scripts.test;
  const fix = 'pass --test-cmd "<command>" or --runner NAME';
  if (script !== undefined && !NPM_PLACEHOLDER.test(script)) {
    const found = analyseCommandLine(script, project);
    const why = 'unknown' in found ? found.unknown : 'it leads to no runner';
    return `no test runner found in ${project.cwd}: scripts.test in package.json ("${script}") does not lead to one fixcycle knows (${why}), and there is no runner config or dependency: ${fix}`;
  }
  const what =
    script !== undefined
      ? "only npm's placeholder test script"
      : project.exists('package.json')
        ? 'no test script'
        : 'no package.json';
  return `no test runner found in ${project.cwd} (${what}, no runner config or dependency, pytest.ini, .pytest.ini, tox.ini, setup.py, go.mod or Cargo.toml): ${fix}`;
}

function withExtensions(base: string): string[] {
  return JS_CONFIG_EXTENSIONS.map((extension) => `${base}.${extension}`);
}
