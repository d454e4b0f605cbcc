import type { PipelineName } from './scope.js';
import type { TeamRole, TeamTask } from './tasks-csv.js';

/** Coverage targets (percent of the changed lines) per layer. */
export const LAYER_TARGETS: Record<string, number> = { L1: 80, L2: 60, L3: 40 };
const LAYER_NAMES: Record<string, string> = { L1: 'unit', L2: 'integration', L3: 'E2E' };

interface Spec {
  id: string;
  role: TeamRole;
  layer?: 'L1' | 'L2' | 'L3';
  deps: string[];
}

const STRATEGY: Spec = { id: 'STRATEGY-001', role: 'strategist', deps: [] };

/** The design's task chains: targeted, standard, comprehensive. */
const CHAINS: Record<PipelineName, Spec[]> = {
  targeted: [
    STRATEGY,
    { id: 'TESTGEN-001', role: 'generator', layer: 'L1', deps: ['STRATEGY-001'] },
    { id: 'TESTRUN-001', role: 'executor', layer: 'L1', deps: ['TESTGEN-001'] },
  ],
  standard: [
    STRATEGY,
    { id: 'TESTGEN-001', role: 'generator', layer: 'L1', deps: ['STRATEGY-001'] },
    { id: 'TESTRUN-001', role: 'executor', layer: 'L1', deps: ['TESTGEN-001'] },
    { id: 'TESTGEN-002', role: 'generator', layer: 'L2', deps: ['TESTRUN-001'] },
    { id: 'TESTRUN-002', role: 'executor', layer: 'L2', deps: ['TESTGEN-002'] },
    { id: 'TESTANA-001', role: 'analyst', deps: ['TESTRUN-002'] },
  ],
  comprehensive: [
    STRATEGY,
    { id: 'TESTGEN-001', role: 'generator', layer: 'L1', deps: ['STRATEGY-001'] },
    { id: 'TESTGEN-002', role: 'generator', layer: 'L2', deps: ['STRATEGY-001'] },
    { id: 'TESTRUN-001', role: 'executor', layer: 'L1', deps: ['TESTGEN-001'] },
    { id: 'TESTRUN-002', role: 'executor', layer: 'L2', deps: ['TESTGEN-002'] },
    { id: 'TESTGEN-003', role: 'generator', layer: 'L3', deps: ['TESTRUN-001', 'TESTRUN-002'] },
    { id: 'TESTRUN-003', role: 'executor', layer: 'L3', deps: ['TESTGEN-003'] },
    { id: 'TESTANA-001', role: 'analyst', deps: ['TESTRUN-003'] },
  ],
};

/** How each pipeline reads on screen: `strategy → gen L1 → run L1`. */
export const PIPELINE_STAGES: Record<PipelineName, string> = {
  targeted: 'strategy → gen L1 → run L1',
  standard: 'strategy → gen L1 → run L1 → gen L2 → run L2 → analysis',
  comprehensive: 'strategy → [gen L1 ∥ gen L2] → [run L1 ∥ run L2] → gen L3 → run L3 → analysis',
};

function texts(s: Spec, scope: string): { title: string; description: string } {
  const layer = s.layer ? `${s.layer} ${LAYER_NAMES[s.layer]}` : '';
  switch (s.role) {
    case 'strategist':
      return {
        title: 'Analyze changes and define test strategy',
        description: `Analyze the change (${scope}), detect the test framework, determine test layers, define coverage targets, formulate a prioritized test strategy`,
      };
    case 'generator':
      return {
        title: `Generate ${layer} tests`,
        description: `Generate ${layer} tests for the changed code following the test strategy and the project's test conventions: happy path, edge cases, error handling`,
      };
    case 'executor':
      return {
        title: `Execute ${s.layer} tests and collect coverage`,
        description: `Run the ${s.layer} tests with coverage, fix failures up to 3 iterations, report pass rate and coverage of the changed lines`,
      };
    case 'analyst':
      return {
        title: 'Analyze test quality',
        description:
          'Analyze the test results, coverage and defects found across the layers; write the quality report with recommendations',
      };
  }
}

/** The rows of tasks.csv for a pipeline, all pending; waves come from the topological sort. */
export function pipelineTasks(pipeline: PipelineName, scope: string): TeamTask[] {
  return CHAINS[pipeline].map((s) => ({
    id: s.id,
    ...texts(s, scope),
    role: s.role,
    layer: s.layer ?? '',
    coverage_target: s.layer ? String(LAYER_TARGETS[s.layer]) : '',
    deps: s.deps.join(';'),
    context_from: s.deps.join(';'),
    exec_mode: s.role === 'executor' ? 'interactive' : 'csv-wave',
    wave: '',
    status: 'pending',
    findings: '',
    pass_rate: '',
    coverage_achieved: '',
    test_files: '',
    error: '',
  }));
}
