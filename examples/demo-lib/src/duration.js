// Human-readable durations: 3_723_000 ms <-> "1h 2m 3s".

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
];

/** Formats milliseconds as "1h 2m 3s", leaving out zero units; under a second it prints "450ms". */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError('formatDuration: ms must be a non-negative number');
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  let rest = Math.round(ms / 1_000) * 1_000;
  const parts = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return parts.join(' ');
}

/** Parses "1h 30m", "45s" or "2d4h" back to milliseconds. */
export function parseDuration(text) {
  const pattern = /(\d+)\s*(ms|d|h|m|s)/g;
  let total = 0;
  let matched = '';
  for (const match of text.matchAll(pattern)) {
    const [whole, count, unit] = match;
    total += Number(count) * (unit === 'ms' ? 1 : UNITS.find(([u]) => u === unit)[1]);
    matched += whole;
  }
  if (matched === '' || matched.replace(/\s/g, '') !== text.replace(/\s/g, '')) {
    throw new SyntaxError(`parseDuration: cannot read "${text}"`);
  }
  return total;
}
