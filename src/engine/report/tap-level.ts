/** The failures found inside one top-level subtest of a test file, each with where in the subtest it is. */
export type SubtestFailures = { message: string; stack?: string }[];

/** Where the TAP reader is: one level per open subtest, with what it has seen there so far. */
export interface Level {
  /** Names of the enclosing subtests. */
  path: string[];
  /** tape's `# test name` header, which groups the assertions under it. */
  group?: string;
  /** The subtest whose closing test point comes next at this level. */
  child?: { failedInside: boolean; failures?: SubtestFailures };
  /** Comments since the last test point (node:test prints a file's load error there). */
  comments: string[];
  failedInside: boolean;
  /** node-tap: where the failures inside a file's top-level subtest are gathered. */
  failures?: SubtestFailures;
  /** The YAML block of the last test point, as printed (read when YAML rejects it). */
  yaml: { lines: string[] | null; last?: string; afterPoint?: boolean };
}
