import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { listlibFeatureRepo } from '../helpers/gen-run.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../agents/helpers.js';
import { CLI, git, readJson, removeRepos } from '../helpers/repo.js';
import { gatewayEnv, missingRealClis } from './harness.js';
import { startStandIn, type RecordedRequest, type StandIn, type StandInStep } from './stand-in/server.js';
import { workingDirectory } from './stand-in/script.js';
import { activeDir } from '../../src/engine/session/paths.js';

/**
 * `fixcycle gen` (the built dist/cli.js, a real child process) on the gen fixture library, driving the real
 * claude CLI, whose model API is the stand-in on 127.0.0.1. The stand-in plays a model: it answers each request
 * from what claude sends (the prompt names the task), so the test does not depend on how many calls a phase makes.
 */

const ANALYSIS = {
  requirements: [
    {
      layer: 'L1',
      target: 'src/listutil.js:clamp',
      cases: ['keeps a value inside the range', 'raises to min and lowers to max', 'throws RangeError when min > max'],
    },
    {
      layer: 'L1',
      target: 'src/listutil.js:chunk',
      cases: ['splits into chunks of size items, the last shorter', 'throws on a size below 1'],
    },
    { layer: 'L1', target: 'src/listutil.js:truncate', cases: ['keeps short text', 'cuts long text with an ellipsis'] },
  ],
  ai_issues: [{ file: 'src/listutil.js', line: 15, severity: 'warning', message: 'chunk() slices size - 1 items' }],
  summary: 'Unit tests for clamp, chunk, truncate.',
};

const HEADER = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n";

/** The tests the model writes, one Write each: the chunk test fails on the off-by-one. */
const TEST_FILES: Record<string, string> = {
  'test/listutil.test.js': `${HEADER}import { chunk, clamp } from '../src/listutil.js';

test('clamp keeps a value inside the range', () => {
  assert.equal(clamp(5, 0, 10), 5);
  assert.equal(clamp(-3, 0, 10), 0);
  assert.equal(clamp(42, 0, 10), 10);
});

test('clamp throws when min is above max', () => {
  assert.throws(() => clamp(1, 5, 0), RangeError);
});

test('chunk splits into chunks of size items, the last shorter', () => {
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
});

test('chunk throws on a size below 1', () => {
  assert.throws(() => chunk([1], 0), RangeError);
});
`,
  'test/truncate.test.js': `${HEADER}import { truncate } from '../src/listutil.js';

test('truncate keeps short text and cuts long text', () => {
  assert.equal(truncate('abc', 5), 'abc');
  assert.equal(truncate('abcdefgh', 5), 'abcd…');
});
`,
};

// What a real model answers the fix loop's analysis with: terse, a fenced JSON block.
const TERSE_PLAN = [
  'chunk() drops the last item of each chunk.',
  '',
  '```json',
  JSON.stringify({
    root_causes: ['chunk() slices i to i + size - 1'],
    modification_points: ['src/listutil.js:chunk:15'],
    affected_tests: ['chunk splits into chunks of size items, the last shorter'],
    confidence_score: 0.9,
    approach: 'slice(i, i + size).',
  }),
  '```',
].join('\n');

interface Message {
  role?: string;
  content?: string | { type?: string; text?: string; name?: string }[];
}

function messagesOf(req: RecordedRequest): Message[] {
  const body = req.body as { messages?: Message[] } | undefined;
  return Array.isArray(body?.messages) ? body.messages : [];
}

/** The text of the user's turns: the prompt fixcycle sent on claude's stdin is in the first. */
function userText(req: RecordedRequest): string {
  return messagesOf(req)
    .filter((m) => m.role === 'user')
    .flatMap((m) => (typeof m.content === 'string' ? [m.content] : (m.content ?? []).map((b) => b.text ?? '')))
    .join('\n');
}

/** How many calls of the tool `name` the model made earlier in this conversation. */
function callsSoFar(req: RecordedRequest, name: string): number {
  return messagesOf(req)
    .filter((m) => m.role === 'assistant' && Array.isArray(m.content))
    .flatMap((m) => m.content as { type?: string; name?: string }[])
    .filter((b) => b.type === 'tool_use' && b.name === name).length;
}

/** The text of the results claude sent back for the model's tool calls. */
function toolResults(req: RecordedRequest): string {
  return JSON.stringify(
    messagesOf(req)
      .filter((m) => m.role === 'user' && Array.isArray(m.content))
      .flatMap((m) => (m.content as { type?: string }[]).filter((b) => b.type === 'tool_result')),
  );
}

const fence = (value: unknown): string =>
  `Three small functions, none tested.\n\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\``;

/** A model that answers by the task the prompt names. */
function genModel(repo: string): (req: RecordedRequest) => StandInStep {
  return (req) => {
    const prompt = userText(req);
    // Paths as the CLI names its folder: gen's worktree, not the user's tree.
    const cwd = workingDirectory(req, repo);
    // The analysis prompt names the changed file without its source: a model reads it first.
    if (prompt.includes('test analyst of fixcycle')) {
      return callsSoFar(req, 'Read') === 0
        ? { type: 'tool', name: 'Read', input: { file_path: join(cwd, 'src/listutil.js') } }
        : { type: 'text', text: fence(ANALYSIS) };
    }
    if (prompt.includes('test generator of fixcycle')) {
      const files = Object.entries(TEST_FILES);
      const next = files[callsSoFar(req, 'Write')];
      return next
        ? { type: 'tool', name: 'Write', input: { file_path: join(cwd, next[0]), content: next[1] } }
        : { type: 'text', text: 'Wrote the tests.' };
    }
    if (prompt.includes('analysis agent of fixcycle')) return { type: 'text', text: TERSE_PLAN };
    if (prompt.includes('fix agent of fixcycle'))
      return {
        type: 'edit',
        file: join(cwd, 'src/listutil.js'),
        old: 'list.slice(i, i + size - 1)',
        new: 'list.slice(i, i + size)',
        text: 'Fixed chunk().',
      };
    return { type: 'text', text: 'Done.' };
  };
}

const standIns: StandIn[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(standIns.splice(0).map((s) => s.close()));
});
afterAll(() => {
  cleanup(...dirs.splice(0));
  removeRepos();
});

const missing = missingRealClis('claude');
describe.skipIf(missing !== undefined)(
  `fixcycle gen --agent claude against the model-API stand-in${missing ? ` (${missing})` : ''}`,
  () => {
    it(
      "analyses, writes tests with claude's Write tool, keeps and commits them, and the fix loop fixes the bug they found",
      { timeout: 300_000 },
      async () => {
        const repo = listlibFeatureRepo();
        const standIn = await startStandIn();
        standIn.script(genModel(repo));
        standIns.push(standIn);
        const home = tempDir('fixcycle-real-home-');
        dirs.push(home);
        const env = { ...gatewayEnv('claude', standIn, home), PWD: repo, FORCE_COLOR: '0' };
        const run = await execa(process.execPath, [CLI, 'gen', '--agent', 'claude', '--headless', '-y'], {
          cwd: repo,
          env,
          extendEnv: false,
          reject: false,
          timeout: 280_000,
        });
        const out = run.stdout + run.stderr;
        expect(run.exitCode, out).toBe(0);

        // Phases 1-4 wrote their files.
        const root = activeDir(repo);
        const dir = join(root, readdirSync(root)[0]!);
        for (const f of [
          'workflow-session.json',
          '.process/test-context-package.json',
          '.process/TEST_ANALYSIS_RESULTS.md',
          'IMPL_PLAN.md',
          'TODO_LIST.md',
          '.task/IMPL-001.json',
          '.task/IMPL-001.3-validation.json',
          '.task/IMPL-001.5-review.json',
          '.task/IMPL-002.json',
          '.summaries/gen-summary.md',
        ]) {
          expect(existsSync(join(dir, f)), f).toBe(true);
        }
        expect(readFileSync(join(dir, '.process/TEST_ANALYSIS_RESULTS.md'), 'utf8')).toMatch(/src\/listutil\.js:chunk/);
        expect(out).toMatch(
          /\[IMPL-001\] done: round 1: claude wrote 2 test file\(s\): test\/listutil\.test\.js, test\/truncate\.test\.js/,
        );
        expect(out).toMatch(/\[IMPL-001\.3\] done: round 1/);
        // Each gen call shows what claude did and what it used, as the fix loop's calls do (not claude's raw JSON lines).
        expect(out).toMatch(
          /\[agent\] claude: › read src\/listutil\.js\n\[agent\] claude \(analyze\): ok in [\d.]+ s \([\d,]+ tokens · \$[\d.]+\)\n\[analysis\] done/,
        );
        expect(out).toMatch(
          /\[agent\] claude: ✎ write test\/listutil\.test\.js\n\[agent\] claude: ✎ write test\/truncate\.test\.js\n\[agent\] claude \(generate\): ok in [\d.]+ s \([\d,]+ tokens/,
        );
        expect(out).not.toMatch(/^\{"type":/m);
        const after = Number(/\[coverage\] src\/listutil\.js: lines 0% → ([\d.]+)%/.exec(out)?.[1]);
        expect(after, out).toBeGreaterThanOrEqual(80);

        // The kept tests are committed as claude wrote them, then the fix loop fixed chunk() and committed that.
        const subjects = git(repo, 'log', '--format=%s').split('\n');
        expect(subjects[0]).toMatch(/^test-cycle: iteration 1 - /);
        expect(subjects[1]).toMatch(/^test-gen: IMPL-001 - 5 generated test\(s\) kept, 0 rejected/);
        expect(git(repo, 'show', '--name-only', '--format=', 'HEAD~1').trim().split('\n').sort()).toEqual([
          'test/listutil.test.js',
          'test/truncate.test.js',
        ]);
        for (const [file, content] of Object.entries(TEST_FILES))
          expect(git(repo, 'show', `HEAD~1:${file}`)).toBe(content.trimEnd());
        expect(readFileSync(join(repo, 'src/listutil.js'), 'utf8')).toContain('list.slice(i, i + size))');
        expect(git(repo, 'status', '--porcelain')).toBe('');
        expect(readJson(join(dir, '.process/iteration-state.json')).status).toBe('completed');

        // Every answer came from the stand-in, to claude's own requests: analysis, generation, fix-loop analysis, fix.
        const prompts = standIn.requests.filter((r) => r.method === 'POST').map(userText);
        for (const role of ['test analyst', 'test generator', 'analysis agent', 'fix agent'])
          expect(
            prompts.some((p) => p.includes(`${role} of fixcycle`)),
            role,
          ).toBe(true);
        // The read-only analysis could read the module (claude sent its source back to the model).
        const analysis = standIn.requests.filter(
          (r) => userText(r).includes('test analyst of fixcycle') && callsSoFar(r, 'Read') > 0,
        );
        expect(analysis.map(toolResults).join('')).toContain('list.slice(i, i + size - 1)');
        const calls = readFileSync(join(dir, '.process/agent-calls.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { agent: string; role: string; classification: string });
        expect(calls.map((c) => `${c.agent} ${c.role} ${c.classification}`)).toEqual([
          'claude analyze ok',
          'claude generate ok',
          'claude analyze ok',
          'claude fix ok',
        ]);
      },
    );
  },
);
