import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendDiscoveries, readBoard } from '../../src/engine/team/discoveries.js';
import { pipelineTasks } from '../../src/engine/team/pipelines.js';
import { choosePipeline, detectScope, moduleOf } from '../../src/engine/team/scope.js';
import { fromCsv, TasksCsvError, toCsv } from '../../src/engine/team/tasks-csv.js';
import { computeWaves, CycleError } from '../../src/engine/team/waves.js';
import { teamRoot } from '../../src/engine/team/session.js';
import { execa, git, makeRepo, removeRepos, ROOT } from '../helpers/repo.js';

afterAll(removeRepos);

describe('tasks.csv', () => {
  it('round-trips quotes, commas, newlines and unicode in findings exactly', () => {
    const tasks = pipelineTasks('standard', 'the change');
    tasks[0]!.findings = 'He said "use vitest", then: a, b, c\nsecond line\r\nthird ""quoted"" → ✓';
    tasks[1]!.error = ',"leading comma and quote';
    tasks[2]!.test_files = 'test/a,b.test.js;test/"q".test.js';
    const text = toCsv(tasks);
    const back = fromCsv(text);
    expect(back).toEqual(tasks);
    expect(toCsv(back)).toBe(text);
  });

  it('refuses a file that is not CSV or lacks a column, in one line', () => {
    expect(() => fromCsv('"id","title"\n"a","b"\n')).toThrow(TasksCsvError);
    expect(() => fromCsv('"id","title"\n"a","b"\n')).toThrow(/has no "description" column/);
    expect(() => fromCsv('"id","title\n"a')).toThrow(/is not valid CSV/);
  });
});

describe('waves', () => {
  it('computes the design waves of each pipeline by topological sort', () => {
    const waves = (p: 'targeted' | 'standard' | 'comprehensive') =>
      Object.fromEntries(computeWaves(pipelineTasks(p, 'x')));
    expect(waves('targeted')).toEqual({ 'STRATEGY-001': 1, 'TESTGEN-001': 2, 'TESTRUN-001': 3 });
    expect(waves('comprehensive')).toEqual({
      'STRATEGY-001': 1,
      'TESTGEN-001': 2,
      'TESTGEN-002': 2,
      'TESTRUN-001': 3,
      'TESTRUN-002': 3,
      'TESTGEN-003': 4,
      'TESTRUN-003': 5,
      'TESTANA-001': 6,
    });
  });

  it('rejects a cycle, naming it, and an unknown dependency', () => {
    const tasks = pipelineTasks('standard', 'x');
    tasks.find((t) => t.id === 'TESTGEN-001')!.deps = 'STRATEGY-001;TESTRUN-001';
    expect(() => computeWaves(tasks)).toThrow(CycleError);
    expect(() => computeWaves(tasks)).toThrow(
      /cycle: (TESTGEN-001 → TESTRUN-001 → TESTGEN-001|TESTRUN-001 → TESTGEN-001 → TESTRUN-001)/,
    );
    const unknown = pipelineTasks('targeted', 'x');
    unknown[1]!.deps = 'NOPE-001';
    expect(() => computeWaves(unknown)).toThrow(/TESTGEN-001 depends on NOPE-001, which is not in tasks.csv/);
  });
});

describe('discoveries.ndjson', () => {
  it('appends only new entries (by type and key), skips and counts malformed lines, never rewrites a line', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'fixcycle-board-')), 'discoveries.ndjson');
    writeFileSync(
      path,
      '{"ts":"t","worker":"A","type":"test_generated","data":{"file":"test/a.test.js"}}\nnot json at all\n{"type":"unknown_kind","data":{}}\n{"ts":"t","worker":"B","type":"test_generated","data":{"file":"test/a.test.js","test_count":3}}\n{"ts":"t","worker":"C","type":"coverage_gap","data":{"file":"src/x.js"}}',
    );
    const before = readFileSync(path, 'utf8');
    const board = await readBoard(path);
    expect(board.entries.map((e) => `${e.type} ${e.worker}`)).toEqual(['test_generated A', 'coverage_gap C']);
    expect(board.malformed).toBe(2);
    const added = await appendDiscoveries(path, 'D', [
      { type: 'test_generated', data: { file: 'test/a.test.js' } },
      { type: 'defect_found', data: { file: 'src/x.js', line: 4, pattern: 'off_by_one', description: 'chunk' } },
      { type: 'defect_found', data: { file: 'src/x.js', line: 4, pattern: 'off_by_one', description: 'again' } },
    ]);
    expect(added).toBe(1);
    const after = readFileSync(path, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect((await readBoard(path)).entries.map((e) => e.type)).toEqual([
      'test_generated',
      'coverage_gap',
      'defect_found',
    ]);
  });
});

describe('scope', () => {
  it('names modules by package or top-level source folder', () => {
    expect(moduleOf('src/auth/login.ts')).toBe('src/auth');
    expect(moduleOf('src/index.ts')).toBe('src');
    expect(moduleOf('packages/core/src/a.ts')).toBe('packages/core');
    expect(moduleOf('lib/x/y.js')).toBe('lib/x');
    expect(moduleOf('tools/gen.js')).toBe('tools');
  });

  it('chooses the pipeline by the design thresholds', () => {
    const of = (files: number, modules: number) =>
      choosePipeline({
        files: Array.from({ length: files }, (_, i) => `f${i}`),
        modules: Array.from({ length: modules }, (_, i) => `m${i}`),
      }).pipeline;
    expect([of(3, 1), of(4, 1), of(3, 2), of(10, 3), of(11, 1), of(5, 4)]).toEqual([
      'targeted',
      'standard',
      'standard',
      'standard',
      'comprehensive',
      'comprehensive',
    ]);
  });

  it('reads the change against the merge base, else HEAD~1, else the staged changes', async () => {
    const repo = makeRepo(null, { 'src/a/one.js': 'export const one = 1;\n', 'README.md': '# r\n' });
    expect((await detectScope(repo)).against).toBe('staged');
    writeFileSync(join(repo, 'src/a/one.js'), 'export const one = 2;\n');
    git(repo, 'add', '-A');
    expect(await detectScope(repo)).toMatchObject({ against: 'staged', files: ['src/a/one.js'], modules: ['src/a'] });
    git(repo, 'commit', '-q', '-m', 'two');
    expect(await detectScope(repo)).toMatchObject({ against: 'HEAD~1', files: ['src/a/one.js'] });
    git(repo, 'switch', '-q', '-c', 'feature');
    writeFileSync(join(repo, 'src/b.js'), 'export const b = 1;\n');
    writeFileSync(join(repo, 'README.md'), '# changed\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'b');
    writeFileSync(join(repo, 'src/a/two.js'), 'export const two = 2;\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'two');
    expect(await detectScope(repo)).toMatchObject({
      against: 'merge-base',
      files: ['src/a/two.js', 'src/b.js'],
      modules: ['src', 'src/a'],
    });
  });
});

describe('team session ids', () => {
  it('four team runs claiming the same name at the same moment, in four processes, get four sessions', async () => {
    const repo = makeRepo(null, { 'README.md': 'x\n' });
    const claim = `import { claimTeamSessionId } from ${JSON.stringify(join(ROOT, 'dist/engine/team/session.js'))};
process.stdout.write(await claimTeamSessionId(process.argv[1], 'the change', new Date('2026-11-27T10:00:00Z')));`;
    const ids = await Promise.all(
      Array.from({ length: 4 }, () =>
        execa(process.execPath, ['--input-type=module', '-e', claim, repo]).then((r) => r.stdout),
      ),
    );
    expect([...ids].sort()).toEqual([
      'tst-the-change-20261127',
      'tst-the-change-20261127-2',
      'tst-the-change-20261127-3',
      'tst-the-change-20261127-4',
    ]);
    expect(readdirSync(teamRoot(repo)).sort()).toEqual([...ids].sort());
  });
});
