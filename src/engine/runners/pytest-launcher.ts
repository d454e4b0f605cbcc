import { closeSync, openSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Invocation } from './invocation.js';
import { findOnPath } from './project.js';

const PYTHON = /^python(3(\.\d+)?)?$/;

/**
 * The Python a `pytest` script on PATH runs with, as its `#!` line names it (a venv's, pipx's, /usr/bin's); a
 * script that is not Python itself (pyenv's or asdf's shim, a wrapper) runs the `python3` on PATH, and the
 * launcher goes back to the script when that one cannot import pytest. Null when there is no Python to run.
 */
function pythonOf(script: string): string | null {
  let head = '';
  try {
    const fd = openSync(script, 'r');
    try {
      const buffer = Buffer.alloc(256);
      head = buffer
        .subarray(0, readSync(fd, buffer, 0, 256, 0))
        .toString('utf8')
        .split('\n')[0]!;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const words = head.startsWith('#!') ? head.slice(2).trim().split(/\s+/) : [];
  const named = basename(words[0] ?? '') === 'env' ? words.slice(1).find((w) => !w.startsWith('-')) : words[0];
  if (named && PYTHON.test(basename(named))) return named;
  return findOnPath('python3') ? 'python3' : null;
}

/**
 * pytest runs the tests in its own process, where `sys.argv` is its command line: a test calling
 * `argparse.parse_args()` would read `--junitxml=...`. A small launcher gives pytest the full arguments
 * through `pytest.main()` and the tests the user's own `sys.argv` and `sys.path[0]`.
 */
export function hideFromPytest(
  invocation: Invocation,
  call: { launcher: string[]; args: string[] },
  at: number,
  full: string[],
  reportDir: string,
): Invocation {
  const [head, flag, module] = call.launcher;
  const asModule = flag === '-m' && module === 'pytest' && PYTHON.test(head!.split('/').at(-1)!);
  const script = call.launcher.length === 1 && (head === 'pytest' || head === 'py.test') ? findOnPath(head) : null;
  const python = asModule ? head! : script ? pythonOf(script) : null;
  if (!python) return invocation;
  // `python -m pytest` puts the working folder first on sys.path; the `pytest` script puts its own folder there.
  const setup = asModule
    ? `sys.argv = [importlib.util.find_spec("pytest.__main__").origin, *${JSON.stringify(call.args)}]\nsys.path[0] = os.getcwd()`
    : `sys.argv = [${JSON.stringify(script)}, *${JSON.stringify(call.args)}]\nsys.path.pop(0)`;
  // A script's shim may start another Python than the python3 on PATH (a pipx install): without pytest here, the
  // script runs as the user's command would, with fixcycle's options on its command line.
  const load = asModule
    ? ['import pytest']
    : [
        'try:',
        '    import pytest',
        'except ImportError:',
        `    os.execv(${JSON.stringify(script)}, [${JSON.stringify(script)}, *${JSON.stringify(full)}])`,
      ];
  // fixcycle's plugins load from their files, after pytest, so neither changes what the tests import.
  const plugins = (invocation.pytestPlugins ?? []).map(
    (file, n) =>
      `_spec = importlib.util.spec_from_file_location("fixcycle_plugin_${n}", ${JSON.stringify(file)})\n_plugins.append(importlib.util.module_from_spec(_spec))\n_spec.loader.exec_module(_plugins[-1])`,
  );
  const source = [
    "# Written by fixcycle for one test run: pytest gets its report options, the tests the user's own command line.",
    'import importlib.util, os, sys',
    setup,
    ...load,
    '_plugins = []',
    ...plugins,
    `raise SystemExit(pytest.main(${JSON.stringify(full)}, plugins=_plugins))`,
    '',
  ].join('\n');
  const file = join(reportDir, 'fixcycle-launch.py');
  return {
    ...invocation,
    argv: [...invocation.argv.slice(0, at), python, file],
    prepare: [...(invocation.prepare ?? []), { path: file, content: source }],
  };
}
