/** One L0 finding: what is wrong, where, and whether it blocks (critical) or is only reported (warning). */
export interface Finding {
  file: string;
  line: number;
  severity: 'critical' | 'warning';
  check:
    | 'typecheck'
    | 'syntax'
    | 'lint'
    | 'import'
    | 'export'
    | 'placeholder'
    | 'mock-in-source'
    | 'no-assertion'
    | 'constant-assertion'
    | 'focused-or-skipped';
  message: string;
  /** The test case it concerns, when it is about one. */
  test?: string;
}

export function findingLine(f: Finding): string {
  return `${f.severity} ${f.check} ${f.file}:${f.line}: ${f.message}`;
}
