// The generation corpus table, for a terminal: one block per project, then the totals the issue's "done when" counts.
const secs = (s) => (typeof s === 'number' ? `${s.toFixed(1)}s` : '-');
const counts = (c) => (c ? `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}` : '-');

function coverageText(cov) {
  if (!cov) return 'no coverage event';
  if (!cov.measured) return `not measured: ${cov.reason ?? '?'}`;
  return (
    cov.files
      .map(
        (f) =>
          `${f.file} lines ${f.linesBefore ?? '-'}% → ${f.linesAfter ?? '-'}%, branches ${f.branchesBefore ?? '-'}% → ${f.branchesAfter ?? '-'}%`,
      )
      .join('; ') || 'measured, no changed file'
  );
}

/** The verdicts of one gen row (null where it cannot say). */
export function genVerdicts(row) {
  // A bad generation whose premise does not hold on this machine (its "hallucinated" package is installed) is no
  // longer bad: it is left out of the counts and shown as not measurable.
  const bad = (row.bad ?? []).filter((b) => !b.notMeasurable);
  const bare = row.bare?.summary;
  const base = row.gen?.baseline;
  return {
    badRejectedRight: bad.filter((b) => b.rejected && b.right && !b.committed).length,
    badTotal: bad.length,
    realKept: row.real?.committed ?? 0,
    realTotal: row.real?.total ?? 0,
    brokenCommitted: (row.broken ?? []).length + bad.filter((b) => b.committed).length,
    coverageMeasured: row.gen?.coverage?.measured === true,
    exitZero: row.gen?.exit === 0,
    baselineIsPublished: bare && base ? base.passed === bare.passed && base.failed === bare.failed : null,
  };
}

export function formatGenRow(row) {
  if (row.error) return `${row.name} [${row.family}]\n  ERROR ${row.error}\n`;
  const v = genVerdicts(row);
  const lines = [
    `${row.name} [${row.family}]  removed ${row.removed}, change ${row.target}`,
    `  real tests:  ${v.realKept}/${v.realTotal} committed${row.real?.identical ? ' (file identical to the published one)' : ''}${row.real?.dropped?.length ? `; dropped: ${row.real.dropped.slice(0, 4).join(', ')}${row.real.dropped.length > 4 ? ', ...' : ''}` : ''}`,
    ...(row.real?.reasons ?? []).slice(0, 4).map((r) => `      ${r.slice(0, 200)}`),
    `  bad:         ${v.badRejectedRight}/${v.badTotal} rejected with the right reason`,
    ...(row.bad ?? []).map(
      (b) =>
        `      ${b.notMeasurable ? '-- ' : b.rejected && b.right && !b.committed ? 'ok ' : 'NO '} ${b.kind.padEnd(20)} ${b.notMeasurable ? `not measurable: ${b.notMeasurable}` : `${b.committed ? 'COMMITTED ' : ''}${b.by[0] ?? 'never rejected'}`}`,
    ),
    `  committed files failing collection or holding no test: ${v.brokenCommitted}${(row.broken ?? []).map((b) => `\n      ${b.file}: ${b.problem}`).join('')}`,
    `  coverage:    ${coverageText(row.gen?.coverage)}`,
    `  baseline:    after gen ${counts(row.gen?.baseline)} vs published ${counts(row.bare?.summary)}${v.baselineIsPublished === false ? ' (differs)' : ''}`,
    ...(row.gen?.baseline?.errors ?? []).slice(0, 2).map((e) => `      error: ${e}`),
    ...(row.gen?.baseline?.failures ?? []).slice(0, 3).map((f) => `      fail: ${f}`),
    `  gen:         exit ${row.gen?.exit}${row.gen?.timedOut ? ' TIMED OUT' : ''}, ${row.gen?.outcome ?? '-'}${row.gen?.reason && row.gen.outcome !== 'success' ? ` (${row.gen.reason})` : ''}; rounds ${row.state?.rounds ?? '-'}, ${secs(row.gen?.seconds)} vs bare suite ${secs(row.bare?.seconds)} (${row.bare?.seconds ? (row.gen.seconds / row.bare.seconds).toFixed(1) : '-'}x)`,
    ...(row.gen?.failedNodes ?? []).slice(0, 5).map((n) => `      ${n}`),
  ];
  if (row.gen?.exit !== 0 && !row.gen?.outcome && row.gen?.stderr) lines.push(`      stderr: ${row.gen.stderr}`);
  return lines.join('\n') + '\n';
}

export function formatGenTotals(rows) {
  const ok = rows.filter((r) => !r.error).map(genVerdicts);
  const sum = (k) => ok.reduce((n, v) => n + v[k], 0);
  return [
    `${rows.length} projects (${rows.length - ok.length} errors): bad generations rejected right ${sum('badRejectedRight')}/${sum('badTotal')}; real tests committed ${sum('realKept')}/${sum('realTotal')};`,
    `committed files failing collection or empty ${sum('brokenCommitted')}; coverage measured ${ok.filter((v) => v.coverageMeasured).length}/${ok.length}; gen exit 0 ${ok.filter((v) => v.exitZero).length}/${ok.length}; baseline = published ${ok.filter((v) => v.baselineIsPublished).length}/${ok.length}`,
  ].join('\n');
}
