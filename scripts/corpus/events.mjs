// Reads the NDJSON events of `fixcycle run --json` into what the corpus table shows.

/** The events on stdout, one JSON object a line; other lines are ignored. */
export function parseEvents(stdout) {
  const events = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      // a partial last line of a killed run
    }
  }
  return events;
}

const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 140) ?? '';

function counts(results) {
  if (!results) return null;
  // Tests a stopped run never reached (cargo after its first failing target) are fixcycle's "not run", which the
  // runner's own summary does not count: compared apart.
  const notRun = (results.failures ?? []).filter((f) => /^not run: /.test(f.message ?? '')).length;
  return {
    total: results.total,
    passed: results.passed,
    failed: results.failed - notRun,
    notRun,
    skipped: results.skipped,
    passRate: results.pass_rate,
    source: results.source,
    scope: results.scope,
    failures: (results.failures ?? []).map((f) => ({
      id: f.id,
      file: f.file ?? null,
      message: firstLine(f.message),
      missing: f.missing === true,
    })),
    errors: (results.errors ?? []).map((e) => firstLine(e.message ?? e.summary ?? JSON.stringify(e))),
  };
}

/** What one fixcycle run did: the first and last full counts, agent calls, the outcome. */
export function summariseRun(events) {
  const results = events.filter((e) => e.type === 'results').map((e) => e.results);
  const full = results.filter((r) => r.scope === 'full');
  const done = events.find((e) => e.type === 'done');
  const session = events.find((e) => e.type === 'session');
  const agentCalls = events.filter((e) => e.type === 'agent' && e.status === 'started').map((e) => e.role);
  const rejected = events
    .filter((e) => e.type === 'agent' && e.status === 'finished' && e.classification !== 'ok')
    .map((e) => `${e.role}: ${e.classification}${e.detail ? ` (${firstLine(e.detail)})` : ''}`);
  const problems = events
    .filter((e) => e.type === 'log' && e.level !== 'info')
    .map((e) => `${e.level}: ${firstLine(e.message)}`);
  return {
    testCommand: session?.testCommand ?? null,
    first: counts(full[0] ?? results[0]),
    last: counts(full.at(-1) ?? results.at(-1)),
    runs: results.length,
    agentCalls,
    rejected,
    commits: events.filter((e) => e.type === 'commit').length,
    rollbacks: events.filter((e) => e.type === 'rollback').length,
    problems: [...new Set(problems)].slice(0, 6),
    outcome: done?.outcome ?? null,
    reason: done ? firstLine(done.reason) : null,
    // The verdicts read the whole reason: a long test id can push what it says past the shown cut.
    fullReason: done?.reason ?? null,
    exitCode: done?.exitCode ?? null,
    passRate: done?.passRate ?? null,
    // Every step of an iteration names it; an iteration whose fix changed nothing runs no tests.
    iterations: Math.max(0, ...events.map((e) => (typeof e.iteration === 'number' ? e.iteration : 0))),
    localizeMs: events.filter((e) => e.type === 'suspects').reduce((ms, e) => ms + (e.localization.durationMs ?? 0), 0),
    suspects:
      events
        .find((e) => e.type === 'suspects')
        ?.localization.suspects.map((x) => ({
          file: x.file,
          function: x.function,
          startLine: x.startLine,
          endLine: x.endLine,
        })) ?? null,
  };
}
