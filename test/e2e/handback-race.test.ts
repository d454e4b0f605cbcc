// The hand-back against a save that lands while it merges: a `git` on PATH that passes every call through to the
// real one, except that at the hand-back's first three-way merge (`git merge-file`) it first saves a line into the
// user's copy of the file being merged, as an editor would in that moment. The hand-back read the copy before; the
// line must still be there at the end, with the fixes merged around it.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCmd, CLI, execa, git, makeRepo, removeRepos, scenario } from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

const SAVED = '// saved by the user during the hand-back';

/**
 * A `git` that saves `SAVED` into `file` at the first merge of the user's working copy (`git merge-file` whose
 * `ours` holds `mark`, a line only the user's copy has; the replay's merges of commits do not), then runs the real
 * git. The hand-back read the copy just before that merge.
 */
function gitSavingAtMerge(file: string, mark: string): { dir: string; marker: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-git-shim-'));
  const marker = join(dir, 'saved');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(
    join(dir, 'git'),
    `#!/bin/sh
if [ "$1" = merge-file ] && [ ! -e ${JSON.stringify(marker)} ]; then
  for a in "$@"; do
    case "$a" in
      */ours) if grep -qF ${JSON.stringify(mark)} "$a"; then
          : > ${JSON.stringify(marker)}
          printf '%s\\n' ${JSON.stringify(SAVED)} >> ${JSON.stringify(file)}
        fi ;;
    esac
  done
fi
exec ${JSON.stringify(real)} "$@"
`,
  );
  chmodSync(join(dir, 'git'), 0o755);
  return { dir, marker };
}

describe('the hand-back and a save during its merge', () => {
  it("merges again from the newer copy: the user's line saved mid-merge is kept, the fixes merged around it", async () => {
    const repo = makeRepo('projects-loop/calc');
    const calcPath = join(repo, 'src/calc.js');
    const calc = readFileSync(calcPath, 'utf8');
    // Uncommitted work in the file the agent fixes: the hand-back merges three-way there.
    writeFileSync(calcPath, `${calc}// unsaved work of the user\n`);
    const shim = gitSavingAtMerge(calcPath, '// unsaved work of the user');
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await execa(
      process.execPath,
      [CLI, 'run', '--headless', '--test-cmd', 'node --test', '--agent-cmd', agentCmd(agent.path)],
      { cwd: repo, reject: false, env: { FORCE_COLOR: '0', PATH: `${shim.dir}:${process.env.PATH}` } },
    );
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    // The shim saved while the hand-back merged (a merge of the user's copy happened).
    expect(readFileSync(shim.marker, 'utf8')).toBe('');
    expect(run.stdout).toMatch(/merged into your uncommitted changes in src\/calc\.js/);
    const working = readFileSync(calcPath, 'utf8');
    expect(working).toContain('return a + b;');
    expect(working).toContain('return a * b;');
    expect(working).toContain('// unsaved work of the user\n');
    expect(working).toContain(`${SAVED}\n`);
    // Committed: the fixes, and no line of the user's.
    expect(git(repo, 'show', 'HEAD:src/calc.js')).not.toMatch(/user/);
    expect(git(repo, 'status', '--porcelain')).toBe(' M src/calc.js');
  }, 120_000);
});
