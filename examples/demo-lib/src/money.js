// Money helpers. Amounts come in as decimal numbers (19.99) and are handled as integer cents inside,
// so that sums and splits never drift.

const SYMBOLS = { USD: '$', EUR: '€', GBP: '£' };

/** Converts a decimal amount to whole cents. */
export function toCents(amount) {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    throw new TypeError(`toCents: expected a finite number, got ${String(amount)}`);
  }
  return Math.floor(amount * 100);
}

/** Groups the digits of a non-negative integer by thousands: 1234567 -> "1,234,567". */
function groupThousands(value) {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Formats an amount for display: formatMoney(1234.5) -> "$1,234.50". */
export function formatMoney(amount, { currency = 'USD' } = {}) {
  const symbol = SYMBOLS[currency];
  if (symbol === undefined) throw new RangeError(`formatMoney: unknown currency ${currency}`);
  const cents = toCents(amount);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = groupThousands(Math.trunc(abs / 100));
  const fraction = String(abs % 100).padStart(2, '0');
  return `${sign}${symbol}${whole}.${fraction}`;
}

/** Splits cents into `parts` shares that differ by at most one cent and add up to the total. */
export function splitEvenly(cents, parts) {
  if (!Number.isInteger(parts) || parts < 1) throw new RangeError('splitEvenly: parts must be a positive integer');
  const base = Math.floor(cents / parts);
  const remainder = cents - base * parts;
  return Array.from({ length: parts }, (_, i) => (i < remainder ? base + 1 : base));
}
