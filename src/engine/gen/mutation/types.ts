/** The kinds of small change a mutant makes to one changed line. */
export type MutationOperator =
  | 'comparison'
  | 'logical'
  | 'arithmetic'
  | 'negate-condition'
  | 'remove-not'
  | 'constant'
  | 'return-value'
  | 'drop-statement';

/** One small change to one changed line of a module: the whole mutated text, ready to write in its place. */
export interface Mutant {
  /** `<file>:<line>:<n>`, stable for the same text and changed lines. */
  id: string;
  /** Repository-relative path of the mutated module. */
  file: string;
  /** 1-based line the change starts on (one of the changed lines). */
  line: number;
  operator: MutationOperator;
  /** What changed, as a reader sees it: `>= -> <`. */
  description: string;
  /** The module's whole text with this one change. */
  text: string;
}

/** A candidate change found by a language's mutator, before the spread over the changed lines picks some. */
export interface MutationSite {
  line: number;
  operator: MutationOperator;
  description: string;
  text: string;
}
