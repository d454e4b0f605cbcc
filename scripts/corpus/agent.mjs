#!/usr/bin/env node
// The corpus's scripted agent, speaking fixcycle's agent command protocol (README: "Agent command protocol").
// Usage: node agent.mjs SPEC.json, where SPEC holds the bug's edits and each broken file's unbroken text
// (scripts/corpus/bug.mjs, agentSpec). analyze: a short prose analysis and a JSON plan naming every edited line,
// as a terse model answers; fix: restores the files. It never commits.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const role = process.env.FIXCYCLE_ROLE;
// A spec of the one-edit form ({ file, search, replace, original }) is read as a list of one.
const edits = spec.edits ?? [{ file: spec.file, search: spec.search, replace: spec.replace }];
const originals = spec.edits ? spec.originals : spec.original ? { [spec.file]: spec.original } : null;

function failures() {
  try {
    const results = JSON.parse(readFileSync(process.env.FIXCYCLE_TEST_RESULTS ?? '', 'utf8'));
    return Array.isArray(results.failures) ? results.failures : [];
  } catch {
    return [];
  }
}

function line(file, search) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = text.indexOf(search);
  return at < 0 ? 1 : text.slice(0, at).split('\n').length;
}

const code = (s) => `\`${s.trim().split('\n')[0].slice(0, 120)}\``;

if (role === 'analyze') {
  const failing = failures();
  const ids = failing.map((f) => f.id).slice(0, 8);
  const first = failing[0]
    ? `${failing[0].name}: ${String(failing[0].message ?? '')
        .split('\n')[0]
        .slice(0, 160)}`
    : 'the failing tests';
  const at = edits.map((e) => ({ ...e, line: line(e.file, e.replace) }));
  const where = at.map((e) => `${e.file} line ${e.line}`).join(', ');
  process.stdout.write(
    [
      `The failures all trace back to ${where}. ${at.map((e) => `At ${e.file} line ${e.line} the code reads ${code(e.replace)} where the original behaviour needs ${code(e.search)}.`).join(' ')}`,
      `The first failure shows it: ${first}.`,
      `The tests themselves are correct and match the documented behaviour of the library, so the fix belongs in the`,
      `source only. Restoring the original code should make every listed test pass again without touching`,
      `any other module, and no test or configuration file needs to change.`,
      '',
      '```json',
      JSON.stringify(
        {
          root_causes: at.map(
            (e) => `${e.file} line ${e.line} uses ${code(e.replace)} where ${code(e.search)} is required`,
          ),
          modification_points: at.map((e) => `${e.file}:${e.line}-${e.line}`),
          affected_tests: ids,
          confidence_score: 0.85,
          approach: `Restore the original code at ${where}.`,
        },
        null,
        2,
      ),
      '```',
      '',
    ].join('\n'),
  );
} else if (role === 'fix') {
  // On the unbroken project there is nothing to restore: a fix call there is fixcycle's mistake, and the
  // agent leaves the code as it is, as a model would find nothing wrong.
  if (originals && Object.keys(originals).length > 0) {
    for (const [file, text] of Object.entries(originals)) writeFileSync(file, text);
    process.stdout.write(`Restored ${Object.keys(originals).join(', ')}.\n`);
  } else {
    process.stdout.write(`${edits.map((e) => e.file).join(', ')} already as they should be: nothing to change.\n`);
  }
} else {
  process.stderr.write(`agent.mjs: FIXCYCLE_ROLE must be analyze or fix, not ${role}\n`);
  process.exit(2);
}
