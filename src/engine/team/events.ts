import type { TaskStatus } from './tasks-csv.js';

/** The pipeline offered before a team session starts: the detected one, the one chosen now, and every alternative. */
export interface TeamChoice {
  detected: string;
  chosen: string;
  why: string;
  files: number;
  modules: string[];
  options: { name: string; stages: string; tasks: number }[];
}

/** What `fixcycle team` reports: the pipeline chosen, wave and task transitions, per-layer coverage. */
export type TeamEvent =
  | ({ type: 'team-choice' } & TeamChoice)
  | {
      type: 'team-pipeline';
      sessionId: string;
      pipeline: string;
      why: string;
      stages: string;
      alternatives: string[];
      files: number;
      modules: string[];
      acceptedBy: string;
    }
  | { type: 'team-wave'; wave: number; waves: number; status: 'running' | 'done'; tasks: string[]; detail?: string }
  | { type: 'team-task'; id: string; role: string; layer: string; wave: number; status: TaskStatus; detail?: string }
  | {
      type: 'team-coverage';
      layer: string;
      round: number;
      passRate: number;
      coverage: number | null;
      target: number;
      accepted?: 'met' | 'warning';
    }
  | { type: 'team-discoveries'; total: number; malformed: number; latest: string[] };

/** The headless line of a team event: one per task transition and wave. */
export function teamLine(event: TeamEvent): string | null {
  switch (event.type) {
    case 'team-pipeline':
      return `[team] ${event.sessionId}: ${event.files} file(s) in ${event.modules.length} module(s) (${event.modules.join(', ') || 'none'}) → ${event.pipeline} pipeline (${event.why}): ${event.stages}; accepted by ${event.acceptedBy}; alternatives: ${event.alternatives.join(', ')} (--pipeline)`;
    case 'team-wave':
      return `[wave ${event.wave}/${event.waves}] ${event.status === 'running' ? `${event.tasks.join(', ')}...` : `done${event.detail ? `: ${event.detail}` : ''}`}`;
    case 'team-task':
      return `[${event.id} ${event.role}${event.layer ? ` ${event.layer}` : ''} wave ${event.wave}] ${event.status}${event.detail ? `: ${event.detail}` : ''}`;
    case 'team-coverage':
      return `[coverage ${event.layer}] round ${event.round}: pass rate ${(event.passRate * 100).toFixed(1)}%, coverage ${event.coverage ?? '-'}% (target ${event.target}%)${event.accepted === 'warning' ? ' — accepted with a warning: GC rounds used up' : event.accepted === 'met' ? ' — target met' : ''}`;
    case 'team-discoveries':
    case 'team-choice':
      return null;
  }
}
