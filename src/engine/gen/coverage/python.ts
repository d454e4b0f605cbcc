import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { delimiter } from 'node:path';
import { execa } from 'execa';
import type { Invocation } from '../../runners/invocation.js';
import { findOnPath } from '../../runners/project.js';
import { testCommandEnv } from '../../runners/run-env.js';
import { readCoveragePyJson } from './coverage-py.js';
import type { CoverageData } from './model.js';

/** The Python that runs pytest in this command: `python3 -m pytest`'s, or the `pytest` script's (its #! line). */
export function pythonOf(argv: readonly string[]): string {
  const head = argv[0] ?? 'python3';
  if (/(^|\/)python[\d.]*$/.test(head)) return head;
  const script = head.includes('/') ? head : findOnPath(head);
  const shebang = script ? /^#!\s*(\S+)(?:\s+(\S+))?/.exec(safeRead(script).split('\n')[0] ?? '') : null;
  if (shebang && /python[\d.]*$/.test(shebang[1]!)) return shebang[1]!;
  if (shebang?.[1]?.endsWith('/env') && shebang[2] && /^python[\d.]*$/.test(shebang[2])) return shebang[2];
  return 'python3';
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(0, 300);
  } catch {
    return '';
  }
}

const probed = new Map<string, boolean>();

/** Whether the Python that runs the tests can import coverage.py (with the variables the test script sets). */
export function hasCoveragePy(inv: Invocation): { python: string; ok: boolean } {
  const python = pythonOf(inv.argv);
  const key = `${python}\0${JSON.stringify(inv.env)}`;
  if (!probed.has(key)) {
    // testCommandEnv holds only what changes; the rest comes from fixcycle's own environment, as execa does.
    const env = Object.fromEntries(Object.entries({ ...process.env, ...testCommandEnv(inv.env) }).filter(([, v]) => v !== undefined));
    probed.set(key, spawnSync(python, ['-c', 'import coverage'], { stdio: 'ignore', timeout: 20_000, env }).status === 0);
  }
  return { python, ok: probed.get(key)! };
}

// coverage.py's documented way to measure every Python process of a run: a sitecustomize that calls
// coverage.process_startup(), with COVERAGE_PROCESS_START naming the settings. It shadows the interpreter's own
// sitecustomize, so it loads that one after itself; it leaves sys.path as the tests would see it.
const SITECUSTOMIZE = `# Written by fixcycle for one test run: coverage.py in every Python process the tests start.
import os, sys
_here = os.path.dirname(os.path.abspath(__file__))
try:
    import coverage
except ImportError:
    with open(os.path.join(_here, "no-coverage"), "a") as _f:
        _f.write(sys.executable + "\\n")
else:
    with open(os.path.join(_here, "python"), "w") as _f:
        _f.write(sys.executable)
    coverage.process_startup()
if _here in sys.path:
    _at = sys.path.index(_here)
    del sys.path[_at]
    del sys.modules["sitecustomize"]
    try:
        import sitecustomize
    except ImportError:
        pass
`;

/** The folder and settings of one coverage.py run; written before the tests start. */
export function preparePython(dir: string, root: string): { env: (inv: Invocation) => Invocation } {
  const py = join(dir, 'py');
  mkdirSync(py, { recursive: true });
  writeFileSync(join(py, 'sitecustomize.py'), SITECUSTOMIZE);
  const rc = ['[run]', 'branch = True', 'parallel = True', `data_file = ${join(py, '.coverage')}`, `source = ${root}`, 'omit =', '    */site-packages/*', '    */.venv/*', '    */venv/*', ''].join('\n');
  writeFileSync(join(py, '.coveragerc'), rc);
  return {
    env: (inv) => {
      const path = [py, inv.env.PYTHONPATH ?? process.env.PYTHONPATH].filter(Boolean).join(delimiter);
      return { ...inv, env: { ...inv.env, PYTHONPATH: path, COVERAGE_PROCESS_START: join(py, '.coveragerc') } };
    },
  };
}

/**
 * Combines the run's coverage.py data files and reads them through `coverage json`, run by the Python that
 * measured them. `missing` says why there is none (coverage.py not installed for that Python).
 */
export async function readPythonCoverage(dir: string, root: string, include: (file: string) => boolean): Promise<{ data: CoverageData; missing?: string }> {
  const py = join(dir, 'py');
  const python = existsSync(join(py, 'python')) ? readFileSync(join(py, 'python'), 'utf8').trim() : null;
  if (!python) {
    const without = existsSync(join(py, 'no-coverage')) ? readFileSync(join(py, 'no-coverage'), 'utf8').split('\n')[0] : null;
    if (without) return { data: {}, missing: `coverage.py is not installed for ${without}: install it (pip install coverage, or apt-get install python3-coverage)` };
    return { data: {}, missing: 'coverage.py never started in the Python that ran the tests (it did not load sitecustomize: started with -S or -I, or PYTHONPATH reset): run pytest as `python -m pytest`' };
  }
  const rc = `--rcfile=${join(py, '.coveragerc')}`;
  const opts = { cwd: root, reject: false, timeout: 120_000, env: { COVERAGE_PROCESS_START: undefined, PYTHONPATH: process.env.PYTHONPATH } };
  await execa(python, ['-m', 'coverage', 'combine', '--quiet', rc], opts);
  const json = join(py, 'coverage.json');
  const made = await execa(python, ['-m', 'coverage', 'json', '--quiet', rc, '-o', json], opts);
  if (!existsSync(json)) {
    // coverage.py says why on stdout ("No data to report.") or stderr; the last line that says anything.
    const said = `${made.stdout}\n${made.stderr}`.split('\n').map((l) => l.trim()).filter(Boolean).at(-1);
    return { data: {}, missing: `coverage.py could not write its report: ${said ?? `exit code ${made.exitCode}`}` };
  }
  return { data: await readCoveragePyJson(json, root, include) };
}
