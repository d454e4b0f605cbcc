import type { Criticality } from '../types.js';

/** What the heuristics look at: a failing test as a report gives it. */
export interface FailureSignal {
  name: string;
  message?: string;
  stack?: string;
  file?: string;
}

/** A criticality guessed from a failure's words, with the rule that matched. */
export interface HeuristicCriticality {
  level: Criticality;
  reason: string;
}

interface Rule {
  level: Criticality;
  reason: string;
  /** Matched against the message and the stack. */
  text?: RegExp;
  /** Matched against the test's name and file. */
  subject?: RegExp;
}

// Order matters: the first rule that matches decides. Security and data-loss words in the test's name or
// its failure come first (a timed-out auth test still matters); crashes next; then the environment and
// timeouts, which say little about the code; plain assertion failures last.
const RULES: Rule[] = [
  {
    level: 'high',
    reason: 'security: the failure concerns authentication, permissions, secrets or injection',
    subject:
      /\b(auth|authn|authz|authenticat\w*|authori[sz]\w*|unauthori[sz]ed|login|logout|sign[ -]?in|permissions?|privileges?|access control|injection|xss|csrf|passwords?|secrets?|token[ _-]?leaks?|sanitiz\w*)\b/i,
    text: /\b(sql injection|xss|csrf|token[ _-]?leaks?|password|unauthori[sz]ed|forbidden|permission denied|privilege escalation)\b/i,
  },
  {
    level: 'high',
    reason: 'data loss: the failure concerns corrupt, lost or deleted data',
    subject:
      /\b(corrupt\w*|data[ _-]?loss|los(e|es|t|ing) data|delet(e|es|ed|ing|ion)|truncat\w* (data|tables?|files?))\b/i,
    text: /\b(corrupt\w*|data[ _-]?loss|lost data|deleted? (rows?|records?|files?|data))\b/i,
  },
  {
    level: 'high',
    reason: 'crash: the code threw an unexpected error rather than failing an assertion',
    text: /\b(TypeError|ReferenceError|RangeError|SyntaxError|NullPointerException|AttributeError|KeyError|IndexError|NameError|segmentation (fault|violation)|SIGSEGV|SIGABRT|uncaught|unhandled (promise )?rejection|stack overflow|maximum call stack|out of memory|core dumped|index out of bounds|attempt to \w+ with overflow)\b|\bpanic(ked)?:|called `(Option|Result)::unwrap\(\)`/i,
  },
  {
    level: 'low',
    reason: 'timeout: the test ran out of time, which is often the environment or a slow wait',
    text: /\b(timed? ?out|timeout|deadline exceeded|ETIMEDOUT|ESOCKETTIMEDOUT)\b/i,
  },
  {
    level: 'low',
    reason: 'environment: a service, port, network or program was not available',
    text: /\b(ECONNREFUSED|ECONNRESET|EADDRINUSE|EAI_AGAIN|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|getaddrinfo|connection refused|address already in use|network (is )?unreachable|socket hang up|command not found|executable file not found)\b|\bspawn \S+ ENOENT\b/i,
  },
  {
    level: 'medium',
    reason: 'assertion: the code ran and gave a different result than the test expects',
    text: /\b(AssertionError|AssertionFailedError|assert(ion)? failed|assert\b|expected\b.*\b(to|but|got|received)\b|should (be|equal|have|contain)\b|want\b)|\b(Expected|Received):|!==|toBe|toEqual/i,
  },
];

/**
 * Guesses how much a failing test matters from its words: security and data-loss words and crashes high,
 * timeouts and environment errors low, assertion failures medium. Null when nothing matches; config rules
 * and the agent's plan take precedence over these guesses.
 */
export function heuristicCriticality(failure: FailureSignal): HeuristicCriticality | null {
  const subject = `${failure.name}\n${failure.file ?? ''}`;
  const text = `${failure.message ?? ''}\n${failure.stack ?? ''}`;
  for (const rule of RULES) {
    if (rule.subject?.test(subject) || rule.text?.test(text)) return { level: rule.level, reason: rule.reason };
  }
  return null;
}
