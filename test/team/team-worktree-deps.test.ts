import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromCsv } from '../../src/engine/team/tasks-csv.js';
import { git, removeRepos, ROOT, runCli } from '../helpers/repo.js';
import { agentDir, teamAgentCmd, teamRepo, teamSession } from './team-helpers.js';

afterAll(removeRepos);

/** teamlib as a TypeScript-checked project: its typecheck needs typescript and @types/node from node_modules. */
function typedRepo(): string {
  const repo = teamRepo({
    base: {
      '.gitignore': 'node_modules/\n.env*\n',
      'package.json': JSON.stringify({
        name: 'teamlib',
        private: true,
        type: 'module',
        scripts: { test: 'node --test' },
        devDependencies: { typescript: '*', '@types/node': '*' },
      }),
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          allowJs: true,
          checkJs: true,
          noEmit: true,
          module: 'nodenext',
          target: 'es2022',
          types: ['node'],
          skipLibCheck: true,
        },
        include: ['src', 'test'],
      }),
    },
  });
  // An installed node_modules, as `npm install` leaves it (the packages themselves are fixcycle's own).
  mkdirSync(join(repo, 'node_modules/.bin'), { recursive: true });
  mkdirSync(join(repo, 'node_modules/@types'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules/typescript'), join(repo, 'node_modules/typescript'));
  symlinkSync(join(ROOT, 'node_modules/@types/node'), join(repo, 'node_modules/@types/node'));
  symlinkSync('../typescript/bin/tsc', join(repo, 'node_modules/.bin/tsc'));
  writeFileSync(join(repo, '.env.test'), 'API_URL=http://127.0.0.1:9\n');
  return repo;
}

type Event = { type: string; id?: string; status?: string; detail?: string };

async function comprehensive(repo: string): Promise<{ events: Event[]; dir: string }> {
  const run = await runCli(
    repo,
    ['team', '--json', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agentDir())],
    { timeoutMs: 300_000 },
  );
  expect(run.exitCode, run.stderr).toBe(0);
  return {
    events: run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Event),
    dir: teamSession(repo),
  };
}

const detailsOf = (events: Event[], id: string) =>
  events.filter((e) => e.type === 'team-task' && e.id === id).map((e) => e.detail ?? '');

describe('fixcycle team: task worktrees that can build', () => {
  it("links the main tree's node_modules into each task worktree and copies its .env files, so the L0 typecheck runs there; nothing of it is committed", async () => {
    const repo = typedRepo();
    const { events, dir } = await comprehensive(repo);
    for (const id of ['TESTGEN-001', 'TESTGEN-002', 'TESTRUN-001', 'TESTRUN-002'])
      expect(detailsOf(events, id), id).toContain('in its own worktree (linked node_modules; copied .env.test)');
    const tasks = Object.fromEntries(fromCsv(readFileSync(join(dir, 'tasks.csv'), 'utf8')).map((t) => [t.id, t]));
    expect(tasks['TESTGEN-001']!.findings).toMatch(/L0: tsc --noEmit ran, 0 warning\(s\)/);
    expect(tasks['TESTGEN-002']!.findings).toMatch(/L0: tsc --noEmit ran, 0 warning\(s\)/);
    expect(readFileSync(join(dir, 'discoveries.ndjson'), 'utf8')).not.toMatch(/check_skipped/);
    expect(git(repo, 'ls-files')).not.toMatch(/node_modules/);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 360_000);

  it('without node_modules installed, the worktree and the skipped typecheck are said in the task detail and on the board', async () => {
    const repo = typedRepo();
    rmSync(join(repo, 'node_modules'), { recursive: true });
    const { events, dir } = await comprehensive(repo);
    const worktreeLine = detailsOf(events, 'TESTGEN-001').find((d) => d.startsWith('in its own worktree'));
    expect(worktreeLine).toMatch(
      /^in its own worktree \(copied \.env\.test; missing node_modules \(package\.json has dependencies but the main tree has none installed: run your package manager there\)\)$/,
    );
    // L0's line, then the runner judges' progress before the commit.
    expect(detailsOf(events, 'TESTGEN-001')).toContainEqual(
      expect.stringMatching(
        /test file\(s\): .*; L0 could not run typecheck \(tsconfig\.json but no typescript in node_modules\)$/,
      ),
    );
    const board = readFileSync(join(dir, 'discoveries.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; worker: string; data: { description: string } });
    const skipped = board.filter((d) => d.type === 'check_skipped');
    expect(skipped.map((d) => d.data.description)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^task worktree: node_modules \(package\.json has dependencies/),
        'L0 typecheck (tsconfig.json but no typescript in node_modules)',
      ]),
    );
    expect(readFileSync(join(dir, 'context.md'), 'utf8')).toMatch(
      /## Checks That Could Not Run\n\n- TESTGEN-00[12]: task worktree: node_modules \(package\.json has dependencies[^\n]*\n- TESTGEN-00[12]: L0 typecheck \(tsconfig\.json but no typescript in node_modules\)\n/,
    );
  }, 360_000);
});
