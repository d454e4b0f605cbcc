/** The nodes of the gen phase tree: phases 1-5, and the tasks under phase 5. */
export const GEN_NODES = [
  'session',
  'context',
  'analysis',
  'tasks',
  'execution',
  'IMPL-001',
  'IMPL-001.3',
  'IMPL-001.5',
  'IMPL-002',
] as const;
export type GenNode = (typeof GEN_NODES)[number];

export const GEN_NODE_TITLES: Record<GenNode, string> = {
  session: 'Phase 1: Session Start',
  context: 'Phase 2: Test Context Gather',
  analysis: 'Phase 3: Test Analysis',
  tasks: 'Phase 4: Test Task Generate',
  execution: 'Phase 5: Test Cycle Execution',
  'IMPL-001': 'IMPL-001 test generation',
  'IMPL-001.3': 'IMPL-001.3 code validation (L0)',
  'IMPL-001.5': 'IMPL-001.5 quality gate',
  'IMPL-002': 'IMPL-002 test & fix cycle',
};

/** A changed file's coverage of its changed lines, before and after the generated tests (percentages). */
export interface CoverageLine {
  file: string;
  linesBefore: number | null;
  linesAfter: number | null;
  branchesBefore: number | null;
  branchesAfter: number | null;
  targetLines: number;
  targetBranches: number;
  /** Why there is no percentage: no changed line is executable. */
  note?: string;
}

/** What the gen pipeline reports, besides the loop's own events once IMPL-002 runs. */
export type GenEvent =
  | {
      type: 'gen';
      node: GenNode;
      status: 'pending' | 'running' | 'done' | 'failed' | 'skipped';
      detail?: string;
      round?: number;
      findings?: string[];
    }
  | { type: 'gen-coverage'; files: CoverageLine[]; measured: boolean; reason?: string }
  /** Per changed module, its mutants (src/engine/gen/mutation/): made, run, killed by the kept tests, by them alone. */
  | { type: 'gen-mutation'; modules: import('./mutation/mutation-report.js').ModuleMutation[]; note?: string };
