// The corpus table, for a terminal: one block per project.
import { verdicts } from './run-project.mjs';

const mark = (ok) => (ok === null ? '?' : ok ? 'ok' : 'NO');
const fmt = (c) => (c ? `${c.passed}/${c.failed}` : '-');
const secs = (s) => (typeof s === 'number' ? `${s.toFixed(1)}s` : '-');

/** passed/failed pairs as "fixcycle vs runner" with a mark. */
function pair(got, want) {
  return `${fmt(got)} vs ${fmt(want)}${want ? (got && got.passed === want.passed && got.failed === want.failed ? '' : ' (differs)') : ''}`;
}

export function formatRow(row) {
  if (row.error) return `${row.name} [${row.family}]\n  ERROR ${row.error}\n`;
  const v = verdicts(row);
  const exp = row.expected ?? {};
  const lines = [
    `${row.name} [${row.family}]${row.localize === false ? ' (--no-localize)' : ''}  runner ${row.expectedRunner} / found ${row.found?.runner ?? 'none'}${row.found?.from ? ` (${row.found.from})` : ''}${row.found?.error ? ` - ${row.found.error}` : ''}`,
    `  unbroken: exit ${row.clean?.processExit}, ${row.clean?.outcome}, agent calls ${row.clean?.agentCalls.length}, counts ${pair(row.clean?.last, exp.fixed)} [${mark(v.cleanAtOnce)}]${row.clean?.timedOut ? ' TIMED OUT' : ''}`,
    `  broken:   first ${pair(row.broken?.first, exp.broken)}  last ${pair(row.broken?.last, exp.fixed)}  (${exp.unit ?? 'unit?'}; source ${row.broken?.first?.source ?? '-'})`,
    `            ${row.broken?.outcome}, exit ${row.broken?.processExit}, agent calls ${row.broken?.agentCalls.join(',') || 'none'}, commits ${row.broken?.commits}, rollbacks ${row.broken?.rollbacks} [converged ${mark(v.converged)}]${row.broken?.timedOut ? ' TIMED OUT' : ''}`,
    `  time:     bare ${secs(row.bare?.seconds)} (exit ${row.bare?.exit}${row.bare?.command && row.bare.command !== 'npm test' ? `, \`${row.bare.command}\`` : ''}) vs fixcycle ${secs(row.clean?.seconds)} unbroken, ${secs(row.broken?.seconds)} broken`,
    `  suspects: the bug (${row.bugLine ? `line ${row.bugLine}` : '?'}) ranked ${row.suspectRank ?? (row.broken?.suspects ? 'not among them' : 'none ranked')}${row.broken?.suspects?.[0] ? `; first ${row.broken.suspects[0].file}:${row.broken.suspects[0].function}:${row.broken.suspects[0].startLine}-${row.broken.suspects[0].endLine}` : ''}`,
    `  this machine's bare runs: unbroken ${fmt(row.bare?.summary)}, broken ${fmt(row.bareBroken?.summary)}`,
  ];
  for (const f of (row.broken?.first?.failures ?? []).slice(0, 5))
    lines.push(`    fail ${f.id}${f.file ? ` (${f.file})` : ''}: ${f.message}`);
  if ((row.broken?.first?.failures ?? []).length > 5)
    lines.push(`    ... ${row.broken.first.failures.length - 5} more`);
  for (const e of (row.broken?.first?.errors ?? []).slice(0, 3)) lines.push(`    error: ${e}`);
  for (const p of [...(row.clean?.problems ?? []), ...(row.broken?.problems ?? [])].slice(0, 4)) lines.push(`    ${p}`);
  for (const r of (row.broken?.rejected ?? []).slice(0, 3)) lines.push(`    agent ${r}`);
  if (row.broken?.reason && row.broken.outcome !== 'success') lines.push(`    reason: ${row.broken.reason}`);
  if (row.clean?.reason && row.clean.outcome !== 'success') lines.push(`    unbroken reason: ${row.clean.reason}`);
  if (row.clean && !row.clean.outcome && row.clean.stderr)
    lines.push(`    unbroken stderr: ${row.clean.stderr.slice(0, 200)}`);
  if (row.broken && !row.broken.outcome && row.broken.stderr && row.broken.stderr !== row.clean?.stderr)
    lines.push(`    broken stderr: ${row.broken.stderr.slice(0, 200)}`);
  return lines.join('\n') + '\n';
}

export function formatTotals(rows) {
  const ok = rows.filter((r) => !r.error).map(verdicts);
  const count = (key) => ok.filter((v) => v[key] === true).length;
  return [
    `${rows.length} projects: runner found ${count('runnerFound')}, unbroken ends at once ${count('cleanAtOnce')}, broken converged ${count('converged')},`,
    `counts equal to the runner's: broken ${count('brokenCounts')}, fixed ${count('fixedCounts')}; errors ${rows.length - ok.length}`,
  ].join('\n');
}
