/** The kinds of evidence a suspect can rest on. */
export type EvidenceKind = 'coverage' | 'stack' | 'change';

/**
 * How finely a coverage run tells the tests apart: per test, the failing tests apart from the passing tests of
 * their files (`split`), per test file (process), or the run as a whole.
 */
export type Granularity = 'test' | 'split' | 'file' | 'run';

/** A code location fixcycle suspects, with the score of each kind of evidence (0..1) and why. */
export interface Suspect {
  /** Repository-relative file. */
  file: string;
  /** The function (`Class.method`), or `(top level)` for code outside any function. */
  function: string;
  startLine: number;
  endLine: number;
  /** The combined score, 0..1. */
  score: number;
  /** The lines inside it that scored highest, best first. */
  lines: number[];
  scores: Partial<Record<EvidenceKind, number>>;
  /** One line per piece of evidence, in words. */
  evidence: string[];
}

/** What localization found for one set of failures, and what it rested on. */
export interface Localization {
  suspects: Suspect[];
  /** The evidence that was available and used. */
  used: EvidenceKind[];
  /** Why a kind of evidence was not used (no coverage tool, no green commit known, ...). */
  notes: string[];
  /** The coverage run's granularity, when one ran. */
  granularity?: Granularity;
  /** The commit the change evidence is measured from. */
  changeBase?: string;
  durationMs: number;
  /** True when the coverage came from the per-commit cache. */
  cached?: boolean;
}

/** Lines a unit of tests executed, and whether it failed: one column of the spectrum. */
export interface SpectrumUnit {
  name: string;
  failed: boolean;
  /** `file:line` keys. */
  lines: string[];
}

/** A function's name and its lines (1-based, inclusive). */
export interface FunctionSpan {
  name: string;
  start: number;
  end: number;
  /**
   * Where the function starts in the file's text (JavaScript): V8's coverage of a function starts there, which
   * tells two functions on one line apart.
   */
  offset?: number;
  /** A test written beside the code (Rust's `#[test]`): never a suspect. */
  test?: boolean;
}
