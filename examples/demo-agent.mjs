#!/usr/bin/env node
// The scripted agent of `fixcycle demo`. It is not an AI: it knows the three bugs injected into
// examples/demo-lib and speaks fixcycle's agent command protocol honestly.
//
//   FIXCYCLE_ROLE=analyze  reads the failing tests from FIXCYCLE_TEST_RESULTS, picks the first known bug
//                          (in a fixed order) whose tests fail and whose faulty code is still there, and
//                          prints its fix plan as JSON on stdout. Progress goes to stderr.
//   FIXCYCLE_ROLE=fix      reads the plan from FIXCYCLE_TASK_PATH (context.fix_strategy) and applies that
//                          bug's fix with an exact search/replace; exits 1 if the code is not as expected.
//
// FIXCYCLE_DEMO_DELAY_MS (default 500) pauses between steps so the TUI can show them; 0 in tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const DEFAULT_DELAY_MS = 500;
// Long enough for any pipe fixcycle writes the prompt into; the agent never needs the prompt's text.
const STDIN_WAIT_MS = 2_000;

/**
 * The bugs this agent knows, in the order it fixes them: the crash first (it hides everything behind it),
 * then the rounding bug that breaks several similar tests, then the off-by-one.
 */
const KNOWN_BUGS = [
  {
    id: 'query-crash',
    title: 'parseQuery crashes when there is no query string',
    file: 'src/query.js',
    fn: 'parseQuery',
    // Failing tests of this bug: where they live (file, suite) or what they are called.
    where: /\bquery\.test\.[cm]?js\b|\bparseQuery\b|\bgetParam\b/,
    names: ['returns an empty object when there is no query at all', 'returns undefined for a URL without a query'],
    search: "export function parseQuery(search) {\n  const text = search.startsWith('?') ? search.slice(1) : search;\n",
    replace:
      "export function parseQuery(search) {\n  if (search == null) return {};\n  const text = search.startsWith('?') ? search.slice(1) : search;\n",
    rootCause:
      "parseQuery calls search.startsWith('?') without checking its input; getParam passes undefined for a URL without '?', so both throw TypeError: Cannot read properties of undefined (reading 'startsWith').",
    approach: 'Return an empty object from parseQuery when search is null or undefined, before touching the string.',
    criticality: 'high',
  },
  {
    id: 'money-rounding',
    title: 'toCents truncates instead of rounding',
    file: 'src/money.js',
    fn: 'toCents',
    where: /\bmoney\.test\.[cm]?js\b|\bformatMoney\b|\btoCents\b/,
    names: [
      'formats a price with cents',
      'formats euros and pounds',
      'keeps amounts that binary floating point cannot represent exactly',
      'converts a decimal amount to whole cents',
    ],
    search: '  return Math.floor(amount * 100);\n',
    replace: '  return Math.round(amount * 100);\n',
    rootCause:
      'toCents uses Math.floor(amount * 100); amounts like 19.99 are 1998.9999999999998 in binary floating point, so they lose a cent and formatMoney prints $19.98.',
    approach: 'Round to the nearest cent with Math.round in toCents; formatMoney and every caller get exact cents.',
    criticality: 'medium',
  },
  {
    id: 'paginate-off-by-one',
    title: 'paginate drops the last item of every full page',
    file: 'src/paginate.js',
    fn: 'paginate',
    where: /\bpaginate\.test\.[cm]?js\b|\bpaginate\b/,
    names: ['returns the first page', 'returns a page in the middle', 'shows every item exactly once across the pages'],
    search: '    items: items.slice(start, last),\n',
    replace: '    items: items.slice(start, last + 1),\n',
    rootCause:
      "paginate computes `last` as the index of the page's last item (inclusive) but passes it to Array#slice, whose end is exclusive: every full page misses its last item.",
    approach: 'Pass last + 1 as the end of the slice so the page includes its last item.',
    criticality: 'medium',
  },
];

const delayMs = readDelay(process.env.FIXCYCLE_DEMO_DELAY_MS);

function say(message) {
  process.stderr.write(`demo agent: ${message}\n`);
}

function fail(message, code = 1) {
  say(message);
  process.exit(code);
}

function readDelay(raw) {
  if (raw === undefined || raw === '') return DEFAULT_DELAY_MS;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_DELAY_MS;
}

function pause() {
  return delayMs > 0 ? new Promise((done) => setTimeout(done, delayMs)) : Promise.resolve();
}

/** Drains the prompt fixcycle writes on stdin (so its write never fails) and returns its length. */
function drainStdin() {
  if (process.stdin.isTTY) return Promise.resolve(0);
  return new Promise((done) => {
    let length = 0;
    const finish = () => {
      clearTimeout(timer);
      process.stdin.removeAllListeners();
      process.stdin.destroy();
      done(length);
    };
    const timer = setTimeout(finish, STDIN_WAIT_MS);
    process.stdin.on('data', (chunk) => (length += chunk.length));
    process.stdin.on('end', finish);
    process.stdin.on('error', finish);
  });
}

function readJson(path, what) {
  if (!path) fail(`${what}: the environment variable is not set; run me through fixcycle (agent command protocol)`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return fail(`cannot read ${what} at ${path}: ${error.message}`);
  }
}

function failingTests(results) {
  const failures = Array.isArray(results?.failures) ? results.failures : [];
  return failures.filter((failure) => failure && typeof failure === 'object');
}

function belongsTo(bug, failure) {
  const name = String(failure.name ?? '');
  const place = `${failure.file ?? ''} ${failure.id ?? ''} ${name}`;
  return bug.where.test(place) || bug.names.includes(name);
}

/** Where the faulty code is, as `file:function:lines`; null when it is no longer there. */
function locate(bug) {
  let source;
  try {
    source = readFileSync(resolve(bug.file), 'utf8');
  } catch {
    return null;
  }
  const at = source.indexOf(bug.search);
  if (at === -1) return null;
  const first = source.slice(0, at).split('\n').length;
  const last = first + bug.search.trimEnd().split('\n').length - 1;
  return `${bug.file}:${bug.fn}:${first === last ? first : `${first}-${last}`}`;
}

/** The first known bug, in fixed order, whose tests fail and whose faulty code is still in place. */
function diagnose(failures) {
  for (const bug of KNOWN_BUGS) {
    const covered = failures.filter((failure) => belongsTo(bug, failure));
    if (covered.length === 0) continue;
    const point = locate(bug);
    if (point === null) {
      say(`${covered.length} failing test(s) look like "${bug.title}", but that code is not in ${bug.file} any more; skipping`);
      continue;
    }
    return { bug, covered, point };
  }
  return null;
}

async function analyze() {
  const results = readJson(process.env.FIXCYCLE_TEST_RESULTS, 'FIXCYCLE_TEST_RESULTS');
  const failures = failingTests(results);
  say(`iteration ${process.env.FIXCYCLE_ITERATION ?? '?'} (${process.env.FIXCYCLE_STRATEGY ?? 'no'} strategy): reading ${failures.length} failing test(s)`);
  await pause();
  if (failures.length === 0) fail('no failing tests in the test results: nothing to plan');

  const found = diagnose(failures);
  if (found === null) {
    fail(`none of the ${failures.length} failing test(s) match a bug this scripted demo agent knows how to fix; no plan`);
  }
  const { bug, covered, point } = found;
  say(`${covered.length} failing test(s) point at ${point}: ${bug.title}`);
  await pause();

  const affected = covered.map((failure) => String(failure.id ?? failure.name));
  const plan = {
    root_causes: [bug.rootCause],
    modification_points: [point],
    affected_tests: affected,
    confidence_score: 0.85,
    approach: `${bug.approach} One change, nothing else touched.`,
    criticality: Object.fromEntries(affected.map((id) => [id, bug.criticality])),
  };
  process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
}

function planFromTask(taskPath) {
  if (!taskPath) return null;
  let task;
  try {
    task = JSON.parse(readFileSync(taskPath, 'utf8'));
  } catch (error) {
    fail(`cannot read the fix task at ${taskPath}: ${error.message}`);
  }
  let plan = task?.context?.fix_strategy;
  if (typeof plan === 'string') {
    const json = plan.match(/```json\s*([\s\S]*?)```/)?.[1] ?? plan;
    try {
      plan = JSON.parse(json);
    } catch {
      plan = null;
    }
  }
  return plan && typeof plan === 'object' ? plan : null;
}

async function fix() {
  const plan = planFromTask(process.env.FIXCYCLE_TASK_PATH);
  let bug;
  if (plan === null) {
    say('no fix plan in the task file; diagnosing from the test results again');
    bug = diagnose(failingTests(readJson(process.env.FIXCYCLE_TEST_RESULTS, 'FIXCYCLE_TEST_RESULTS')))?.bug;
    if (!bug) fail('no plan and no known bug among the failing tests: nothing to fix');
  } else {
    const points = Array.isArray(plan.modification_points) ? plan.modification_points.map(String) : [];
    bug = KNOWN_BUGS.find((known) => points.some((point) => point.startsWith(`${known.file}:${known.fn}`)));
    if (!bug) fail(`the plan's modification points (${points.join(', ') || 'none'}) are not a fix this scripted demo agent knows`);
  }

  stdout(`applying the fix for "${bug.title}" in ${bug.file} (${bug.fn})`);
  await pause();
  const path = resolve(bug.file);
  let source;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    fail(`cannot read ${bug.file}: ${error.message}`);
  }
  const at = source.indexOf(bug.search);
  if (at === -1 || source.indexOf(bug.search, at + 1) !== -1) {
    fail(`cannot apply the fix: ${bug.file} does not contain the expected code exactly once: ${bug.search.trim().replace(/\s*\n\s*/g, ' ')}`);
  }
  writeFileSync(path, source.slice(0, at) + bug.replace + source.slice(at + bug.search.length));
  const line = source.slice(0, at).split('\n').length;
  stdout(`changed ${bug.file} at line ${line} (${bug.fn}):`);
  for (const change of changedLines(bug.search, bug.replace)) stdout(`  ${change}`);
}

/** The lines a search/replace removes and adds, as "- old" and "+ new". */
function changedLines(before, after) {
  const oldLines = before.trimEnd().split('\n');
  const newLines = after.trimEnd().split('\n');
  return [
    ...oldLines.filter((text) => !newLines.includes(text)).map((text) => `- ${text.trim()}`),
    ...newLines.filter((text) => !oldLines.includes(text)).map((text) => `+ ${text.trim()}`),
  ];
}

function stdout(message) {
  process.stdout.write(`demo agent: ${message}\n`);
}

const role = process.env.FIXCYCLE_ROLE;
const promptLength = await drainStdin();
if (role === 'analyze' || role === 'fix') {
  say(`this is fixcycle's scripted demo agent (no AI): role ${role}, prompt of ${promptLength} bytes received`);
}
if (role === 'analyze') await analyze();
else if (role === 'fix') await fix();
else fail(`FIXCYCLE_ROLE must be "analyze" or "fix", got ${role === undefined ? 'nothing' : `"${role}"`}; run me through fixcycle`, 2);
