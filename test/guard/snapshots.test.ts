import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/git.js';
import { checkFix } from '../../src/engine/guard/index.js';
import { inlineSnapshotRanges } from '../../src/engine/guard/snapshots.js';
import type { FixPlan } from '../../src/engine/session/schema.js';
import { cleanup, makeRepo } from '../agents/helpers.js';

// As jest and vitest write them: a one-line inline snapshot and a multi-line one.
const RENDER_TEST = `import { expect, it } from 'vitest';
import { render } from '../src/render.js';

it('renders a number', () => {
  expect(render(5)).toMatchInlineSnapshot(\`"<b>5</b>"\`);
});

it('renders a list', () => {
  expect(render([1, 2])).toMatchInlineSnapshot(\`
    "<ul>
      <li>1</li>
      <li>2</li>
    </ul>"
  \`);
});
`;
const SNAPSHOT_FILE = '// Vitest Snapshot v1\n\nexports[`renders 1`] = `"<b>5</b>"`;\n';
const PLAN: FixPlan = {
  root_causes: ['the test is wrong'],
  modification_points: ['test/render.test.js'],
  affected_tests: ['test/render.test.js::renders a list'],
  confidence_score: 0.9,
  approach: 'fix the expectation',
  tests_are_wrong: ['test/render.test.js::renders a list', 'test/render.test.js::renders a number'],
};

let repo: string;
beforeEach(() => {
  repo = makeRepo({
    'test/render.test.js': RENDER_TEST,
    'test/__snapshots__/other.test.js.snap': SNAPSHOT_FILE,
    'vitest.config.js': 'export default {\n  test: {},\n};\n',
  });
});
afterEach(() => cleanup(repo));

async function check(files: Record<string, string>, updateSnapshots = false) {
  for (const [path, content] of Object.entries(files)) writeFileSync(join(repo, path), content);
  const git = await Repo.open(repo);
  const changedFiles = await git.changedFiles();
  return checkFix({
    repo,
    changedFiles,
    diff: await git.diff(changedFiles),
    plan: PLAN,
    baselineTestFiles: ['test/render.test.js'],
    updateSnapshots,
  });
}

describe('snapshots are tests', () => {
  it('finds each inline snapshot argument, one line or many', () => {
    expect(inlineSnapshotRanges(RENDER_TEST)).toEqual([
      [5, 5],
      [9, 14],
    ]);
  });

  it('rejects rewriting a multi-line inline snapshot, even where the plan says the test is wrong', async () => {
    const verdict = await check({ 'test/render.test.js': RENDER_TEST.replace('<li>2</li>', '<li>3</li>') });
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reasons[0]).toMatch(
      /^rewrites an inline snapshot in test\/render\.test\.js .*--update-snapshots.*: <li>3<\/li>$/,
    );
  });

  it('rejects a one-line inline snapshot rewritten, and one emptied for the runner to fill in again', async () => {
    const rewritten = await check({ 'test/render.test.js': RENDER_TEST.replace('`"<b>5</b>"`', '`"<b>6</b>"`') });
    expect(!rewritten.ok && rewritten.reasons[0]).toMatch(/rewrites an inline snapshot/);
    const emptied = await check({
      'test/render.test.js': RENDER_TEST.replace(
        /toMatchInlineSnapshot\(`\n[\s\S]*?\n {2}`\)/,
        'toMatchInlineSnapshot()',
      ),
    });
    expect(!emptied.ok && emptied.reasons[0]).toMatch(/rewrites an inline snapshot/);
  });

  it('lets the plan fix a test around an inline snapshot when the snapshot stays', async () => {
    const verdict = await check({
      'test/render.test.js': RENDER_TEST.replace("it('renders a list'", "it('renders a short list'"),
    });
    expect(verdict).toEqual({ ok: true, testEdits: ['test/render.test.js'] });
  });

  it('rejects a snapshot file edit and a config that makes the runner update snapshots', async () => {
    const file = await check({ 'test/__snapshots__/other.test.js.snap': SNAPSHOT_FILE.replace('5', '6') });
    expect(!file.ok && file.reasons[0]).toMatch(/^edits snapshot test\/__snapshots__\/other\.test\.js\.snap/);
    const config = await check({ 'vitest.config.js': 'export default {\n  test: { update: true },\n};\n' });
    expect(!config.ok && config.reasons).toContainEqual(
      expect.stringMatching(
        /^makes the test runner update snapshots in vitest\.config\.js: test: \{ update: true \},$/,
      ),
    );
  });

  it('allows rewriting snapshots, files and inline, in a session started with --update-snapshots', async () => {
    const verdict = await check(
      {
        'test/render.test.js': RENDER_TEST.replace('<li>2</li>', '<li>3</li>'),
        'test/__snapshots__/other.test.js.snap': SNAPSHOT_FILE.replace('5', '6'),
      },
      true,
    );
    expect(verdict).toEqual({ ok: true, testEdits: ['test/__snapshots__/other.test.js.snap', 'test/render.test.js'] });
  });
});
