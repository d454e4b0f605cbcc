import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { git, makeRepo, readJson, ROOT, runCli } from './repo.js';
import { activeDir } from '../../src/engine/session/paths.js';

/** A real repo on `main` with `base`, and a `feature` branch adding `added` (the change gen writes tests for). */
export function genProject(base: Record<string, string>, added: Record<string, string>, link = false): string {
  const repo = makeRepo(null, { ...base, '.gitignore': 'node_modules\n__pycache__/\n' });
  if (link) symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  git(repo, 'switch', '-q', '-c', 'feature');
  for (const [file, text] of Object.entries(added)) {
    mkdirSync(join(repo, file, '..'), { recursive: true });
    writeFileSync(join(repo, file), text);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'the change');
  return repo;
}

/**
 * The listlib fixture on main, and a feature branch adding an untested module with a bug in chunk(): the change
 * the stand-in gen agent writes tests for. The fixture's flaky test keeps a counter in the temporary folder,
 * cleared here.
 */
export function listlibFeatureRepo(): string {
  const repo = makeRepo('projects-gen/listlib');
  git(repo, 'switch', '-q', '-c', 'feature');
  cpSync(join(ROOT, 'test/fixtures/projects-gen/listutil.js'), join(repo, 'src/listutil.js'));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'add listutil');
  for (const f of readdirSync(tmpdir()).filter((n) => n.startsWith('listlib-budget-')))
    rmSync(join(tmpdir(), f), { force: true });
  return repo;
}

/**
 * An agent command that plays the user too: on the agent's first call it appends `saves` (path -> text) to files
 * of the user's tree `repo` (made when absent), then runs `script` with the agent folder and the rest of its
 * arguments. It marks the saves done with the file `saved` in the agent folder.
 */
export function userSavingAgent(
  script: string,
  repo: string,
  agent: string,
  saves: Record<string, string>,
  args: string[] = [],
): string {
  const wrapper = join(agent, 'user-saves.mjs');
  writeFileSync(
    wrapper,
    `import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
const [repo, agent, ...rest] = process.argv.slice(2);
if (!existsSync(agent + '/saved')) {
  writeFileSync(agent + '/saved', '');
  for (const [file, text] of Object.entries(${JSON.stringify(saves)})) appendFileSync(repo + '/' + file, text);
}
const r = spawnSync(process.execPath, [${JSON.stringify(script)}, agent, ...rest], { stdio: 'inherit' });
process.exit(r.status ?? 1);
`,
  );
  return [process.execPath, wrapper, repo, agent, ...args].join(' ');
}

/** The gen session folder of a repo that ran one gen. */
export const genSession = (repo: string): string => join(activeDir(repo), readdirSync(activeDir(repo))[0]!);

/** `fixcycle gen --headless` with a stand-in agent command: its output, exit code, saved state and commit's files. */
export async function runGen(
  repo: string,
  agentCmd: string,
): Promise<{ out: string; exitCode: number | null | undefined; state: any; committed: string[] }> {
  const run = await runCli(repo, ['gen', '--headless', '--agent-cmd', agentCmd], { timeoutMs: 420_000 });
  const state = readJson(join(genSession(repo), '.process/gen-state.json'));
  const sha = state.gen_commit as string | null;
  const committed = sha ? git(repo, 'show', '--name-only', '--format=', sha).split('\n').filter(Boolean).sort() : [];
  return { out: run.stdout + run.stderr, exitCode: run.exitCode, state, committed };
}

/**
 * The environment under which `python3` imports pytest and coverage.py (Debian's python3 with python3-pytest and
 * python3-coverage; a pyenv python3 on PATH is asked for the system one), or undefined: the test skips.
 */
export const pytestEnv = ([{}, { PYENV_VERSION: 'system' }] as Record<string, string>[]).find(
  (env) =>
    spawnSync('python3', ['-c', 'import pytest, coverage'], { stdio: 'ignore', env: { ...process.env, ...env } })
      .status === 0,
);

/** A small pytest project (one module and its test) whose test command runs that python3. */
export const pytestBase = (env: Record<string, string> | undefined): Record<string, string> => ({
  'slug.py': 'def slug(s):\n    return "-".join(s.lower().split())\n',
  'tests/test_slug.py': 'from slug import slug\n\n\ndef test_slug():\n    assert slug(" A b ") == "a-b"\n',
  'conftest.py': '',
  'fixcycle.config.json': JSON.stringify({
    testCommand: `${env?.PYENV_VERSION ? 'PYENV_VERSION=system ' : ''}python3 -m pytest`,
  }),
});
