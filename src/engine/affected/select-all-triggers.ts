/** A changed file that can change how every test runs, and what kind of file it is. */
export interface SelectAllTrigger {
  file: string;
  /** Human wording: `a lockfile`, `the test setup file`, ... */
  kind: string;
}

const BY_NAME: Record<string, string> = {
  'package.json': 'package.json',
  'package-lock.json': 'a lockfile',
  'npm-shrinkwrap.json': 'a lockfile',
  'yarn.lock': 'a lockfile',
  'pnpm-lock.yaml': 'a lockfile',
  'pnpm-workspace.yaml': 'the workspace config',
  'bun.lock': 'a lockfile',
  'bun.lockb': 'a lockfile',
  '.npmrc': 'the npm config',
  '.yarnrc.yml': 'the yarn config',
  '.swcrc': 'the compiler config',
  'conftest.py': 'a pytest conftest',
  'pytest.ini': 'the pytest config',
  '.pytest.ini': 'the pytest config',
  'pyproject.toml': 'the Python project config',
  'setup.cfg': 'the Python project config',
  'setup.py': 'the Python project config',
  'tox.ini': 'the tox config',
  Pipfile: 'the Python dependencies',
  'Pipfile.lock': 'a lockfile',
  'poetry.lock': 'a lockfile',
  'uv.lock': 'a lockfile',
  'go.mod': 'the Go module file',
  'go.sum': 'the Go checksums',
  'go.work': 'the Go workspace',
  'go.work.sum': 'the Go checksums',
  'Cargo.toml': 'the Cargo manifest',
  'Cargo.lock': 'a lockfile',
};

const RUNNER_CONFIG =
  /^(vitest|vite|jest|babel|ava|karma|webpack|rollup|esbuild|playwright)\.(config|workspace)\.[cm]?[jt]s(on)?$/;
const RUNNER_RC = /^\.(mocharc|babelrc|taprc|nycrc|c8rc)(\.[a-z]+)?$/;
// setup.ts, setupTests.ts, jest.setup.js, vitest.global-setup.ts, test-setup.mjs, globalTeardown.ts ...
const SETUP_FILE =
  /^((jest|vitest|tests?)[.\-_]?)?(global[.\-_]?)?(setup|teardown)([.\-_]?(tests?|env|files|after[.\-_]?env))?\.[cm]?[jt]sx?$/i;

const BY_PATTERN: [RegExp, string][] = [
  [/^[tj]sconfig.*\.json$/, 'the TypeScript config'],
  [RUNNER_CONFIG, 'the runner config'],
  [RUNNER_RC, 'the runner config'],
  [SETUP_FILE, 'the test setup file'],
  [/^\.env(\..+)?$/, 'the environment file'],
  [/^requirements.*\.txt$/, 'the Python dependencies'],
];

/**
 * The first changed file that makes a partial selection untrustworthy: a package manifest or
 * lockfile, a TypeScript or runner config, a test setup file, a pytest conftest, go.mod. The kind
 * of file is in the answer so the reason can say why everything runs.
 */
export function findSelectAllTrigger(changedFiles: string[]): SelectAllTrigger | null {
  for (const file of changedFiles) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const kind = BY_NAME[name] ?? BY_PATTERN.find(([pattern]) => pattern.test(name))?.[1];
    if (kind) return { file, kind };
  }
  return null;
}

/** True for a file whose imports every test runs through (a runner config or setup file). */
export function isRunnerEntryFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return RUNNER_CONFIG.test(name) || RUNNER_RC.test(name) || SETUP_FILE.test(name);
}
