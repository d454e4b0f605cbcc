/** What went wrong with a model API call, as precisely as the CLI's words allow. */
export type ErrorKind = 'quota' | 'rate_limit' | 'overloaded' | 'auth' | 'connection' | 'timeout' | 'server';

/**
 * HTTP statuses the text names as statuses: `status 429`, `"code": 401`, `(429)`, `API Error: 500`,
 * `503 Service Unavailable`, `error 429`. A bare number is not one: stack dumps are full of them (`bytesRead: 401`).
 */
export function httpStatuses(text: string): number[] {
  const found: number[] = [];
  const patterns = [
    /(?:\bstatus(?:[ _]?code)?|\bcode|\berror|error_status|\bHTTP(?:\/\d(?:\.\d)?)?|API Error:|Request rejected|status of)\W{0,4}([1-5]\d\d)\b/gi,
    /\(([45]\d\d)\)/g,
    /\b([45]\d\d)\s+(?:Too Many Requests|Unauthori[sz]ed|Forbidden|Internal Server Error|Service Unavailable|Bad Gateway|Gateway Time-?out|Overloaded|invalid x-api-key|Incorrect API key)/gi,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) found.push(Number(m[1]));
  return found;
}

/** Text that says which kind, most telling first: a quota is not a passing rate limit, an auth error is not a server error. */
const WORDS: readonly [ErrorKind, RegExp][] = [
  [
    'quota',
    /exceeded your current quota|insufficient_quota|quota exceeded|usage limit|hit your limit|out of (extra )?usage|\blimit: 0\b|check your plan and billing/i,
  ],
  [
    'auth',
    /unauthori[sz]ed|UNAUTHENTICATED|PERMISSION_DENIED|authentication_error|invalid (x-)?api[ _-]?key|api key not valid|incorrect api key|(set an|invalid) auth method|not logged in|please (run \/)?log ?in|(oauth )?token (has )?expired|credentials? (are |is )?(missing|invalid|not found)/i,
  ],
  ['rate_limit', /rate[ _-]?limit|RESOURCE_EXHAUSTED|resource (has been )?exhausted|too many requests/i],
  ['overloaded', /overloaded|at capacity|service unavailable|UNAVAILABLE\b/i],
  ['timeout', /timed out|\btimeout\b|ETIMEDOUT|deadline exceeded/i],
  [
    'connection',
    /ECONNREFUSED|ConnectionRefused|ECONNRESET|Unable to connect|Connection error|connection failed|connection lost|fetch failed|socket hang up|other side closed|\bterminated\b|ENOTFOUND|EAI_AGAIN|network error|EPIPE/i,
  ],
  ['server', /internal server error|server-side issue|bad gateway/i],
];

function kindOfStatus(status: number): ErrorKind | null {
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'auth';
  if (status === 529 || status === 503) return 'overloaded';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 500) return 'server';
  return null;
}

/** The kind of API failure a CLI's error text describes, or null when it names none. */
export function errorKind(text: string): ErrorKind | null {
  const words = WORDS.find(([, re]) => re.test(text))?.[0] ?? null;
  // A quota or an auth failure is named in words more reliably than by status (a 429 can be a spent quota).
  if (words === 'quota' || words === 'auth') return words;
  const status = httpStatuses(text)
    .map(kindOfStatus)
    .find((k) => k !== null);
  return status ?? words;
}

/** The words a detail line starts with, per kind. */
export const KIND_LABEL: Record<ErrorKind, string> = {
  quota: 'quota exhausted',
  rate_limit: 'rate-limited',
  overloaded: 'API overloaded',
  auth: 'not authenticated',
  connection: 'API unreachable',
  timeout: 'API request timed out',
  server: 'API server error',
};

/** A CLI's stderr without its stack frames, which only repeat the error line above them. */
export function withoutStackFrames(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s+at\s/.test(line))
    .join('\n');
}
