// The team table: per project, every task's status, the executors' coverage, where the writing tasks ran.
const secs = (s) => (typeof s === 'number' ? `${s.toFixed(1)}s` : '-');

// A bad generation whose premise does not hold here (its "hallucinated" module is installed) is not counted.
const measurable = (row) => (row.bad ?? []).filter((b) => !b.notMeasurable);

export function teamVerdicts(row) {
  const tasks = row.tasks ?? [];
  return {
    completed: tasks.filter((t) => t.status === 'completed').length,
    total: tasks.length,
    exitZero: row.exit === 0,
    broken: (row.broken ?? []).length,
    badRejected: measurable(row).filter((b) => !b.committed).length,
    badRejectedRight: measurable(row).filter((b) => !b.committed && b.right).length,
    badTotal: measurable(row).length,
    notMeasurable: (row.bad ?? []).length - measurable(row).length,
    realCommitted: Object.values(row.realTests ?? {}).reduce((n, r) => n + r.committed, 0),
    realTotal: Object.values(row.realTests ?? {}).reduce((n, r) => n + r.total, 0),
  };
}

export function formatTeamRow(row) {
  if (row.error) return `${row.name} [${row.family}]\n  ERROR ${row.error}\n`;
  const v = teamVerdicts(row);
  const lines = [
    `${row.name} [${row.family}]  team --pipeline ${row.pipeline ?? 'standard'}: exit ${row.exit}${row.timedOut ? ' TIMED OUT' : ''}, ${v.completed}/${v.total} tasks completed, ${secs(row.seconds)}`,
  ];
  for (const t of row.tasks ?? []) {
    const cov = t.role === 'executor' ? `, pass ${t.pass_rate || '-'}, coverage ${t.coverage || '-'}` : '';
    lines.push(
      `    ${t.id.padEnd(12)} ${t.role.padEnd(10)} ${(t.layer || '').padEnd(3)} ${t.status}${cov}${t.error ? ` (${t.error.slice(0, 140)})` : ''}`,
    );
    if (row.where?.[t.id]) lines.push(`        ${row.where[t.id]}`);
  }
  lines.push(
    `  real files written back and committed as published: ${Object.entries(row.realBack ?? {})
      .map(([f, same]) => `${f} ${same ? 'yes' : 'NO'}`)
      .join(', ')}`,
  );
  lines.push(
    `  real tests committed: ${v.realCommitted}/${v.realTotal}; bad generations not committed: ${v.badRejected}/${v.badTotal} (with a right reason ${v.badRejectedRight})${v.notMeasurable ? `; not measurable here ${v.notMeasurable}` : ''}`,
  );
  for (const b of row.bad ?? [])
    lines.push(
      `    ${b.kind.padEnd(20)} ${b.notMeasurable ? `not measurable: ${b.notMeasurable}; ` : ''}${b.committed ? 'COMMITTED' : b.right ? 'rejected' : 'not committed, reason not right'}${b.by.length ? `: ${b.by[0].slice(0, 150)}` : ''}`,
    );
  lines.push(
    `  committed test files: ${(row.committed ?? []).join(', ') || 'none'}; failing collection or empty: ${v.broken}`,
  );
  for (const c of row.checkSkipped ?? []) lines.push(`    check skipped: ${c}`);
  if (row.exit !== 0 && row.stderr) lines.push(`    stderr: ${row.stderr}`);
  return lines.join('\n') + '\n';
}

export function formatTeamTotals(rows) {
  const ok = rows.filter((r) => !r.error).map(teamVerdicts);
  return `${rows.length} projects under team: every task completed on ${ok.filter((v) => v.total > 0 && v.completed === v.total).length}, exit 0 on ${ok.filter((v) => v.exitZero).length}, real tests committed ${ok.reduce((n, v) => n + v.realCommitted, 0)}/${ok.reduce((n, v) => n + v.realTotal, 0)}, bad generations not committed ${ok.reduce((n, v) => n + v.badRejected, 0)}/${ok.reduce((n, v) => n + v.badTotal, 0)}, committed files failing collection or empty ${ok.reduce((n, v) => n + v.broken, 0)}; errors ${rows.length - ok.length}`;
}
