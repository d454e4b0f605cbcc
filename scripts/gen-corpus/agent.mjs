#!/usr/bin/env node
// The generation corpus's scripted generator, speaking fixcycle's agent command protocol (README: "Agent command
// protocol", and its `gen` and `team` additions). Usage: node agent.mjs SPEC.json; the prompt comes on stdin.
//   analyze, test-analysis (gen) / STRATEGY-001, TESTANA-001 (team): prose, and for gen the requirements as JSON
//   generate, first round: the removed test file written back exactly as the project had it, plus every bad
//     generation of the menu, each in a file of its own (gen); in team, the layer's real file, and L1's the menu too
//   generate, later rounds: the bad files the feedback names are deleted, as a model drops what it is told does not
//     work; the real file is written again as the project had it; a coverage round adds nothing
//   analyze / fix in the fix loop: a plan naming the failing tests, and no change (the tests are the project's)
// Each call is appended to SPEC's `log` file as `<role> <task> <round>`.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const role = process.env.FIXCYCLE_ROLE;
const task = process.env.FIXCYCLE_TASK_ID ?? `iteration-${process.env.FIXCYCLE_ITERATION ?? '?'}`;
let prompt = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) prompt += chunk;

const calls = existsSync(spec.log)
  ? readFileSync(spec.log, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith(`${role} ${task} `)).length
  : 0;
const round = calls + 1;
appendFileSync(spec.log, `${role} ${task} ${round}\n`);

const json = (value) => `\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n`;
const write = (file, text) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

/** The sections of the prompt that hold what the last round got back: findings, collection errors, uncovered lines. */
function feedback() {
  const sections = prompt
    .split(/^(?=## )/m)
    .filter((s) => /^## (Your last|The kept tests|GC round|.*(collect|reject|fail))/i.test(s));
  return sections.join('\n');
}

if (role === 'analyze' && task === 'test-analysis') {
  process.stdout.write(
    `I read ${spec.target}: ${spec.summary}. The module has no tests of its own on this branch, so every public function needs unit tests, with the edge cases its documentation names.` +
      json({
        requirements: [{ layer: 'L1', target: `${spec.target}:${spec.subject}`, cases: spec.cases }],
        ai_issues: [],
        summary: `Unit tests for ${spec.target}.`,
      }),
  );
} else if (role === 'analyze' && /^STRATEGY/.test(task)) {
  process.stdout.write(
    `# Test strategy\n\n${spec.target} is new on this branch: ${spec.summary}.\n\n- L1: unit tests of ${spec.subject}, in ${spec.real.file}, as the project writes its tests.\n- L2: the module through the package's public entry, in ${spec.l2?.file ?? 'the same style'}.\n\nRisks: none beyond the module itself; it has no I/O.\n`,
  );
} else if (role === 'analyze' && /^TESTANA/.test(task)) {
  process.stdout.write(
    `# Quality report\n\nThe generated tests are the project's own style and pass; the coverage of ${spec.target} is what the executors measured. No defect found.\n`,
  );
} else if (role === 'generate' && process.env.FIXCYCLE_LAYER && spec.team) {
  // team: each layer's generator writes its real file, L1's first round the bad menu beside it (as gen's does);
  // later rounds drop the bad files the feedback names and write the real file again as it was.
  const layer = process.env.FIXCYCLE_LAYER;
  const real = layer === 'L3' && spec.l3 ? spec.l3 : layer === 'L2' && spec.l2 ? spec.l2 : spec.real;
  const bad = layer === 'L1' ? spec.bad : [];
  write(real.file, real.text);
  if (round === 1) {
    for (const b of bad) write(b.file, b.text);
    process.stdout.write(`Wrote ${[real.file, ...bad.map((b) => b.file)].join(', ')}.\n`);
  } else {
    const said = feedback();
    // What the generator was told, for the table's reasons (a screen line holds only the first findings).
    appendFileSync(spec.log.replace(/\.calls\.log$/, '.feedback.log'), said + '\n');
    const dropped = bad.filter((b) => existsSync(b.file) && said.includes(b.file));
    for (const b of dropped) rmSync(b.file);
    process.stdout.write(
      dropped.length
        ? `Wrote ${real.file} again; removed ${dropped.map((b) => b.file).join(', ')}: they could not work as written.\n`
        : `Wrote ${real.file} again; nothing to add.\n`,
    );
  }
} else if (role === 'generate') {
  if (round === 1) {
    write(spec.real.file, spec.real.text);
    for (const bad of spec.bad) write(bad.file, bad.text);
    process.stdout.write(`Wrote ${spec.real.file} and ${spec.bad.map((b) => b.file).join(', ')}.\n`);
  } else {
    const said = feedback();
    const dropped = spec.bad.filter((b) => existsSync(b.file) && said.includes(b.file));
    for (const bad of dropped) rmSync(bad.file);
    if (said.includes(spec.real.file) && existsSync(spec.real.file)) write(spec.real.file, spec.real.text);
    process.stdout.write(
      dropped.length
        ? `Removed ${dropped.map((b) => b.file).join(', ')}: they could not work as written.\n`
        : `The tests in ${spec.real.file} cover what can be tested from outside; nothing to add.\n`,
    );
  }
} else if (role === 'analyze') {
  let failures = [];
  try {
    failures = JSON.parse(readFileSync(process.env.FIXCYCLE_TEST_RESULTS ?? '', 'utf8')).failures ?? [];
  } catch {
    // no results file: the plan names none
  }
  const ids = failures.map((f) => f.id).slice(0, 8);
  process.stdout.write(
    `The failing tests are ${ids.join(', ') || 'not listed'}. ${spec.target} behaves as its documentation says; the failures come from the tests themselves, which this change did not write by hand.` +
      json({
        root_causes: ['generated tests that do not hold'],
        modification_points: [`${spec.real.file}:1-1`],
        affected_tests: ids,
        confidence_score: 0.3,
        approach: 'leave the module as it is',
      }),
  );
} else if (role === 'fix') {
  process.stdout.write(`${spec.target} is right as it is; nothing to change.\n`);
} else {
  process.stderr.write(`agent.mjs: unknown role ${role}\n`);
  process.exit(2);
}
