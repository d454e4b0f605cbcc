// What a gen run left behind, read from the repository and the session: which real tests were committed, what
// became of each bad generation, which committed test files hold no test or fail to collect on their own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../corpus/process.mjs';
import { readSummary } from '../corpus/summary.mjs';

/** The test titles a file declares, in the language's own form (JS/TS it/test, pytest/unittest def test_, go func Test). */
export function testTitles(text, lang) {
  if (lang === 'py') return [...text.matchAll(/^\s*def (test\w*)\s*\(/gm)].map((m) => m[1]);
  if (lang === 'go') return [...text.matchAll(/^func (Test\w+)\s*\(/gm)].map((m) => m[1]);
  return [
    ...text.matchAll(/\b(?:it|test)(?:\.only|\.skip|\.todo|\.serial|\.failing)?\s*\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g),
  ].map((m) => m[2]);
}

/** The session folder of the one gen session in the repository, or null. */
export function genSessionDir(dir) {
  const root = join(dir, '.workflow', 'active');
  if (!existsSync(root)) return null;
  const name = readdirSync(root).find((n) => existsSync(join(root, n, '.process', 'gen-state.json')));
  return name ? join(root, name) : null;
}

export function readGenState(dir) {
  const session = genSessionDir(dir);
  return session ? JSON.parse(readFileSync(join(session, '.process', 'gen-state.json'), 'utf8')) : null;
}

const git = async (dir, ...args) => (await run(['git', ...args], { cwd: dir })).stdout;

/** Test files added or changed between `base` and HEAD (what gen and its fix loop committed). */
export async function committedFiles(dir, base) {
  return (await git(dir, 'diff', '--name-only', '--diff-filter=AM', `${base}..HEAD`)).split('\n').filter(Boolean);
}

export async function fileAtHead(dir, file) {
  const r = await run(['git', 'show', `HEAD:${file}`], { cwd: dir });
  return r.code === 0 ? r.stdout : null;
}

/** The real test file: which of its tests were committed, and the gates' words on each one dropped. */
export async function realTests(dir, entry, original, state) {
  const file = entry.gen.removed;
  const lang = entry.gen.lang;
  const titles = testTitles(original, lang);
  const committed = await fileAtHead(dir, file);
  const left = committed === null ? [] : testTitles(committed, lang);
  const dropped = titles.filter((t) => !left.includes(t));
  const reasons = (state?.rejected ?? [])
    .filter((r) => r.file === file || r.test.startsWith(`${file}`))
    .map((r) => `[${r.gate}] ${r.test}: ${r.reason}`);
  return {
    total: titles.length,
    committed: titles.length - dropped.length,
    identical: committed === original,
    dropped,
    reasons: [...new Set(reasons)],
  };
}

/** Each bad generation: the gates that rejected it (and their words), whether a reason is the right one, whether it was committed. */
export async function badOutcomes(dir, bad, state, env) {
  const out = [];
  for (const b of bad) {
    const installed = b.absentModule ? await importable(dir, b.absentModule, env) : false;
    const rejections = (state?.rejected ?? []).filter(
      (r) =>
        r.file === b.file ||
        r.test === b.file ||
        r.test.startsWith(`${b.file}:`) ||
        r.test.startsWith(`${b.file}::`) ||
        r.test.startsWith(`${b.file} `),
    );
    const rightOnes = rejections.filter((r) => new RegExp(b.reason, 'i').test(`${r.reason}`));
    const right = rightOnes.length > 0;
    const committed = (await fileAtHead(dir, b.file)) !== null;
    out.push({
      kind: b.kind,
      file: b.file,
      rejected: rejections.length > 0,
      right,
      committed,
      ...(installed
        ? { notMeasurable: `${b.absentModule} is installed here, so its import is not a hallucination` }
        : {}),
      by: [...rightOnes, ...rejections.filter((r) => !rightOnes.includes(r))].map(
        (r) => `${r.gate} r${r.round}: ${r.reason.split('\n')[0].slice(0, 120)}`,
      ),
    });
  }
  return out;
}

/** Does the Python that runs the project's tests import `module` (a bad generation's premise is that it does not)? */
export async function importable(dir, module, env) {
  // With the project's own variables (its PATH names the Python its tests run with), from outside the project: in its
  // folder a module of the project named like the library (hyperlink's hypothesis.py) would answer instead.
  const r = await run(['python3', '-c', `import ${module}`], { cwd: '/', env, timeoutMs: 30_000 });
  return r.code === 0;
}

/** The command that runs one test file alone with the project's runner. */
function aloneCommand(entry, file) {
  switch (entry.runner) {
    case 'vitest':
      return `npx vitest run ${file}`;
    case 'jest':
      return `npx jest ${file}`;
    case 'mocha':
      return `npx mocha ${file}`;
    case 'node-test':
      return `node --test ${file}`;
    case 'ava':
      return `npx ava ${file}`;
    case 'pytest':
      // Started as the project's command starts it: `python3 -m pytest` puts the folder first on sys.path, the
      // `pytest` script does not (hyperlink's own hypothesis.py would stand in for the library).
      return `${entry.test.startsWith('pytest') ? 'pytest' : 'python3 -m pytest'} -p no:cacheprovider ${file}`;
    case 'go':
      // The project's own go test flags (pflag's `-vet=off`), its packages left out: the package is built as the
      // project builds it.
      return `go test ${goFlags(entry.test)}-json -count=1 -run . ./${file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.'}`;
    default:
      return null;
  }
}

const goFlags = (test) =>
  test
    .replace(/^go test\s*/, '')
    .split(/\s+/)
    .filter((word) => word.startsWith('-'))
    .map((word) => `${word} `)
    .join('');

/** Committed test files that hold no test, or whose run alone collects nothing (the runner's words kept). */
export async function brokenCommitted(dir, entry, files, env) {
  const lang = entry.gen.lang;
  const problems = [];
  for (const file of files) {
    const text = await fileAtHead(dir, file);
    if (text === null) continue;
    if (testTitles(text, lang).length === 0) {
      problems.push({ file, problem: 'holds no test' });
      continue;
    }
    const command = aloneCommand(entry, file);
    if (!command) continue;
    const r = await run(command, { cwd: dir, env, timeoutMs: 300_000 });
    const summary = readSummary(entry.runner, r.stdout + r.stderr);
    const ran = summary ? summary.passed + summary.failed + (summary.skipped ?? 0) : 0;
    if (ran === 0)
      problems.push({
        file,
        problem: `collects no test alone (exit ${r.code}): ${(r.stderr || r.stdout).trim().split('\n').filter(Boolean).slice(-2).join(' | ').slice(0, 200)}`,
      });
  }
  return problems;
}
