// A corpus bug of several edits (lines, functions, files): made in order, located per edit, and undone by the
// scripted agent (a real child process speaking the agent protocol), as the one-edit form still is.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface Edit {
  file: string;
  search: string;
  replace: string;
}
type Bug = Edit | Edit[];
interface BugModule {
  bugEdits(bug: Bug): Edit[];
  bugFiles(bug: Bug): string[];
  applyBug(dir: string, bug: Bug): Record<string, string>;
  bugLocations(originals: Record<string, string>, bug: Bug): { file: string; line: number }[];
  agentSpec(bug: Bug, originals: Record<string, string> | null): unknown;
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const AGENT = here('../../scripts/corpus/agent.mjs');
const load = async () => (await import(pathToFileURL(here('../../scripts/corpus/bug.mjs')).href)) as BugModule;

const UTILS =
  'function strip (str) {\n  const l = str.length\n  for (let i = 0; i < l; i++) {\n    if (i + 1 === l) return str\n  }\n}\n';
const MAIN = "const { strip } = require('./utils')\nmodule.exports = (s) => strip(s)\n";
const ONE: Edit = { file: 'index.js', search: '(s) => strip(s)', replace: '(s) => strip(s.trim())' };
const BUG: Edit[] = [
  { file: 'lib/utils.js', search: '  const l = str.length\n', replace: '  const l = str.length - 1\n' },
  { file: 'lib/utils.js', search: '    if (i + 1 === l)', replace: '    if (i === l)' },
  ONE,
];

function agent(role: 'analyze' | 'fix', spec: unknown, cwd: string): string {
  const path = join(cwd, '..', `spec-${role}.json`);
  writeFileSync(path, JSON.stringify(spec));
  return execFileSync(process.execPath, [AGENT, path], {
    cwd,
    env: { ...process.env, FIXCYCLE_ROLE: role, FIXCYCLE_TEST_RESULTS: '' },
    encoding: 'utf8',
  });
}

describe('a corpus bug of several edits', () => {
  let root: string;
  let dir: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'corpus-bug-'));
    dir = join(root, 'project');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    writeFileSync(join(dir, 'lib/utils.js'), UTILS);
    writeFileSync(join(dir, 'index.js'), MAIN);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('makes every edit, in order, and locates each on its unbroken line', async () => {
    const bug = await load();
    expect(bug.bugFiles(BUG)).toEqual(['lib/utils.js', 'index.js']);
    const originals = bug.applyBug(dir, BUG);
    expect(originals).toEqual({ 'lib/utils.js': UTILS, 'index.js': MAIN });
    expect(readFileSync(join(dir, 'lib/utils.js'), 'utf8')).toContain('  const l = str.length - 1\n');
    expect(readFileSync(join(dir, 'lib/utils.js'), 'utf8')).toContain('    if (i === l) return str');
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).toContain('strip(s.trim())');
    expect(bug.bugLocations(originals, BUG)).toEqual([
      { file: 'lib/utils.js', line: 2, endLine: 2 },
      { file: 'lib/utils.js', line: 4, endLine: 4 },
      { file: 'index.js', line: 2, endLine: 2 },
    ]);
    // An edit over several lines spans them all; a removal marks the line it starts on.
    const spread = [
      {
        file: 'lib/utils.js',
        search: '  for (let i = 0; i < l; i++) {\n    if (i + 1 === l)',
        replace: '  for (let i = 0; i < l - 1; i++) {\n    if (i + 2 === l)',
      },
    ];
    expect(bug.bugLocations({ 'lib/utils.js': UTILS }, spread)).toEqual([
      { file: 'lib/utils.js', line: 3, endLine: 4 },
    ]);
    const removal = [{ file: 'lib/utils.js', search: '  const l = str.length\n  for', replace: '  for' }];
    expect(bug.bugLocations({ 'lib/utils.js': UTILS }, removal)).toEqual([
      { file: 'lib/utils.js', line: 2, endLine: 2 },
    ]);
  });

  it('refuses a search string that is not in its file once, naming the file', async () => {
    const bug = await load();
    expect(() => bug.applyBug(dir, [{ file: 'index.js', search: 'absent', replace: 'x' }])).toThrow(
      /must occur once in index.js/,
    );
  });

  it('is undone by the scripted agent, whose plan names every edited line', async () => {
    const bug = await load();
    const originals = bug.applyBug(dir, BUG);
    const analysis = agent('analyze', bug.agentSpec(BUG, originals), dir);
    const plan = JSON.parse(/```json\n([^]*?)```/.exec(analysis)?.[1] ?? '{}') as { modification_points: string[] };
    expect(plan.modification_points).toEqual(['lib/utils.js:2-2', 'lib/utils.js:4-4', 'index.js:2-2']);
    agent('fix', bug.agentSpec(BUG, originals), dir);
    expect(readFileSync(join(dir, 'lib/utils.js'), 'utf8')).toBe(UTILS);
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).toBe(MAIN);
  });

  it('keeps the one-edit form: an object bug, and the older agent spec with `original`', async () => {
    const bug = await load();
    const one = ONE;
    expect(bug.bugEdits(one)).toEqual([one]);
    const originals = bug.applyBug(dir, one);
    expect(originals).toEqual({ 'index.js': MAIN });
    agent('fix', { ...one, original: MAIN }, dir);
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).toBe(MAIN);
    // The unbroken project's spec: nothing to restore, nothing written.
    bug.applyBug(dir, one);
    expect(agent('fix', bug.agentSpec(one, null), dir)).toMatch(/nothing to change/);
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).toContain('strip(s.trim())');
  });
});

describe('the rank --localize gives the bug', () => {
  const load = async () =>
    (await import(pathToFileURL(here('../../scripts/corpus/localize.mjs')).href)) as {
      rankOf(list: { id: number; score: number }[], hit: (s: { id: number }) => boolean): number | null;
    };
  const list = [
    { id: 1, score: 0.5 },
    { id: 2, score: 0.5 },
    { id: 3, score: 0.4 },
  ];

  it('counts a tie for first against the bug, unless the tied entries are the bug too', async () => {
    const { rankOf } = await load();
    expect(rankOf(list, (s) => s.id === 1)).toBe(2);
    expect(rankOf(list, (s) => s.id === 2)).toBe(2);
    expect(rankOf(list, (s) => s.id <= 2)).toBe(1);
    expect(rankOf(list, (s) => s.id === 3)).toBe(3);
    expect(rankOf(list, (s) => s.id === 4)).toBeNull();
  });
});
