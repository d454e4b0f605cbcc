#!/usr/bin/env node
// The corpus's scripted agent, speaking fixcycle's agent command protocol (README: "Agent command protocol").
// Usage: node agent.mjs SPEC.json, where SPEC names the broken file and holds its unbroken text.
// analyze: a short prose analysis and a JSON plan naming the broken file, as a terse model answers;
// fix: restores the file. It never commits.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const role = process.env.FIXCYCLE_ROLE;

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

if (role === 'analyze') {
  const failing = failures();
  const ids = failing.map((f) => f.id).slice(0, 8);
  const first = failing[0]
    ? `${failing[0].name}: ${String(failing[0].message ?? '')
        .split('\n')[0]
        .slice(0, 160)}`
    : 'the failing tests';
  const at = line(spec.file, spec.replace);
  process.stdout.write(
    [
      `The failures all trace back to ${spec.file} line ${at}. The expression there was changed to \`${spec.replace.trim()}\`,`,
      `while the original behaviour needs \`${spec.search.trim()}\`. The first failure shows it: ${first}.`,
      `The tests themselves are correct and match the documented behaviour of the library, so the fix belongs in the`,
      `source file only. Restoring the original expression should make every listed test pass again without touching`,
      `any other module, and no test or configuration file needs to change.`,
      '',
      '```json',
      JSON.stringify(
        {
          root_causes: [
            `${spec.file} line ${at} uses \`${spec.replace.trim()}\` where \`${spec.search.trim()}\` is required`,
          ],
          modification_points: [`${spec.file}:${at}-${at}`],
          affected_tests: ids,
          confidence_score: 0.85,
          approach: `Restore \`${spec.search.trim()}\` in ${spec.file} at line ${at}.`,
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
  if (typeof spec.original === 'string' && spec.original !== '') {
    writeFileSync(spec.file, spec.original);
    process.stdout.write(`Restored ${spec.file}.\n`);
  } else {
    process.stdout.write(`${spec.file} already reads \`${spec.search.trim()}\`: nothing to change.\n`);
  }
} else {
  process.stderr.write(`agent.mjs: FIXCYCLE_ROLE must be analyze or fix, not ${role}\n`);
  process.exit(2);
}
