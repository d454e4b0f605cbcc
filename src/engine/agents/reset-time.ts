/** 31 days: no CLI announces a reset further away; a larger value is a misread number. */
const MAX_AHEAD_MS = 31 * 24 * 3600_000;

const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

function unitOf(word: string): number | undefined {
  const w = word.toLowerCase();
  if (w === 'ms' || w.startsWith('millisecond')) return UNIT_MS.ms;
  if (w === 'd' || w.startsWith('day')) return UNIT_MS.d;
  if (w === 'h' || w.startsWith('hr') || w.startsWith('hour')) return UNIT_MS.h;
  if (w === 'm' || w.startsWith('min')) return UNIT_MS.m;
  if (w === 's' || w.startsWith('sec')) return UNIT_MS.s;
  return undefined;
}

const DURATION = /(\d+(?:\.\d+)?)\s*(milliseconds?|ms|days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b/gi;

/** "2 days 17 hours 14 minutes", "37.5s", "1h30m" -> milliseconds. */
function durationMs(text: string): number | undefined {
  let total = 0;
  let found = false;
  for (const match of text.matchAll(DURATION)) {
    const unit = unitOf(match[2]!);
    if (unit === undefined) continue;
    total += Number(match[1]) * unit;
    found = true;
  }
  return found ? total : undefined;
}

/** The offset of `zone` from UTC at instant `at`, in ms (positive east of Greenwich). */
function zoneOffsetMs(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The instant when the wall clock in `zone` (local when absent) shows this date and time. */
function wallClockToEpoch(y: number, mo: number, d: number, h: number, mi: number, zone?: string): number {
  if (!zone) return new Date(y, mo, d, h, mi).getTime();
  const guess = Date.UTC(y, mo, d, h, mi);
  // Twice: the offset at the guess may differ from the offset at the answer across a DST change.
  const first = guess - zoneOffsetMs(guess, zone);
  return guess - zoneOffsetMs(first, zone);
}

/** The wall-clock date parts of `at` in `zone` (local when absent). */
function wallDate(at: number, zone?: string): { y: number; mo: number; d: number } {
  if (!zone) {
    const date = new Date(at);
    return { y: date.getFullYear(), mo: date.getMonth(), d: date.getDate() };
  }
  const shifted = new Date(at + zoneOffsetMs(at, zone));
  return { y: shifted.getUTCFullYear(), mo: shifted.getUTCMonth(), d: shifted.getUTCDate() };
}

function validZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

const CLOCK = /^(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\.?$|^(\d{1,2}):(\d{2})$/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function clockParts(text: string): { h: number; mi: number } | undefined {
  const m = CLOCK.exec(text.trim());
  if (!m) return undefined;
  if (m[4] !== undefined) return { h: Number(m[4]), mi: Number(m[5]) };
  const h12 = Number(m[1]) % 12;
  return { h: m[3]!.toLowerCase() === 'p' ? h12 + 12 : h12, mi: Number(m[2] ?? 0) };
}

/** "4pm", "3:45 PM", "Apr 23 at 4pm", "Jul 5th, 2026 8:19 PM", each in `zone` when given. */
function clockOrDate(text: string, zone: string | undefined, now: number): number | undefined {
  const clock = clockParts(text);
  if (clock) {
    const today = wallDate(now, zone);
    let at = wallClockToEpoch(today.y, today.mo, today.d, clock.h, clock.mi, zone);
    if (at <= now) at = wallClockToEpoch(today.y, today.mo, today.d + 1, clock.h, clock.mi, zone);
    return at;
  }
  const dated = /^([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s*(\d{4})?,?\s*(?:at\s+)?(.+)$/i.exec(text.trim());
  if (!dated) return undefined;
  const month = MONTHS.indexOf(dated[1]!.toLowerCase());
  const time = clockParts(dated[4]!);
  if (month < 0 || !time) return undefined;
  const year = dated[3] ? Number(dated[3]) : wallDate(now, zone).y;
  let at = wallClockToEpoch(year, month, Number(dated[2]), time.h, time.mi, zone);
  if (!dated[3] && at <= now) at = wallClockToEpoch(year + 1, month, Number(dated[2]), time.h, time.mi, zone);
  return at;
}

/** Each way a CLI announces when it may be used again, most precise first. */
const READERS: readonly ((text: string, now: number) => number | undefined)[] = [
  // Claude: "Claude AI usage limit reached|1750708800"
  (text) => {
    const m = /limit reached\|(\d{10})\b/i.exec(text);
    return m ? Number(m[1]) * 1000 : undefined;
  },
  (text) => {
    const m = /resets?_at"?\s*[:=]\s*"?(\d{10,13})\b/i.exec(text);
    if (!m) return undefined;
    const n = Number(m[1]);
    return m[1]!.length === 13 ? n : n * 1000;
  },
  (text, now) => {
    const m = /resets?_in_seconds"?\s*[:=]\s*"?(\d+)/i.exec(text);
    return m ? now + Number(m[1]) * 1000 : undefined;
  },
  // Google RetryInfo: "retryDelay": "37s"
  (text, now) => {
    const m = /retryDelay\\?"?\s*:\s*\\?"(\d+(?:\.\d+)?)s/i.exec(text);
    return m ? now + Number(m[1]) * 1000 : undefined;
  },
  (text, now) => {
    const m = /retry[-_ ]after\\?"?\s*[:=]\s*\\?"?(\d+(?:\.\d+)?)/i.exec(text);
    return m ? now + Number(m[1]) * 1000 : undefined;
  },
  // Gemini CLI: "Suggested retry after 30s."
  (text, now) => {
    const m = /retry after\s+(\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds?|m|min|minutes?|h|hours?))\b/i.exec(text);
    const ms = m ? durationMs(m[1]!) : undefined;
    return ms !== undefined ? now + ms : undefined;
  },
  // "try again in 2 days 17 hours 14 minutes", "Please retry in 37.5s", "resets in 3h"
  (text, now) => {
    const m = /(?:try again|retry|resets?|available again)\s+in\s+((?:\d+(?:\.\d+)?\s*[a-z]+[\s,]*(?:and\s+)?)+)/i.exec(
      text,
    );
    const ms = m ? durationMs(m[1]!) : undefined;
    return ms !== undefined ? now + ms : undefined;
  },
  // "try again at 3:45 PM", "resets 4pm (America/Recife)", "will reset at 9am (America/Chicago)", "resets Apr 23 at 4pm (Europe/Warsaw)"
  (text, now) => {
    const m =
      /(?:try again at|resets? at|resets|reset at|until)\s+([A-Za-z0-9:., ]+?)\s*(?:\(([A-Za-z_]+(?:\/[A-Za-z_+-]+){1,2}|UTC)\))?\s*(?:[.\n·]|$)/i.exec(
        text,
      );
    if (!m) return undefined;
    return clockOrDate(m[1]!, validZone(m[2]), now);
  },
];

/**
 * When a rate-limited CLI said it may be used again (epoch ms), read from its error text;
 * undefined when it did not say, or said something that is already past or implausibly far.
 */
export function findResetTime(text: string, now = Date.now()): number | undefined {
  for (const read of READERS) {
    const at = read(text, now);
    if (at !== undefined && Number.isFinite(at) && at > now && at - now <= MAX_AHEAD_MS) return Math.round(at);
  }
  return undefined;
}
