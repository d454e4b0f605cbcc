import { z } from 'zod';
import { criticalitySchema } from './session/schema.js';

/** The most iterations a session may have, from the configuration or `+` while it runs. */
export const MAX_ITERATIONS_ALLOWED = 100;

const agentSchema = z.strictObject({
  /** Built-in adapter name, or `command` (the default) for a plain command line. */
  adapter: z.string().optional(),
  /** The command: an argument list, or a command line split without a shell. */
  command: z.union([z.array(z.string()).min(1), z.string().min(1)]).optional(),
  roles: z
    .array(z.enum(['analyze', 'fix']))
    .min(1)
    .optional(),
  model: z.string().optional(),
  timeoutSec: z.number().positive().optional(),
});

export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  /** The test command line, as with --test-cmd. */
  testCommand: z.string().min(1).optional(),
  /**
   * Parts of the test command to leave out, by the script they run (`"test-headless"` for `npm run
   * test-headless`), the make target (`"test-chrome"`) or their whole command line: parts that cannot run on this
   * machine (a browser, a service).
   */
  skipParts: z.array(z.string().min(1)).optional(),
  /** Force a runner, as with --runner. */
  runner: z.string().optional(),
  maxIterations: z.number().int().min(1).max(MAX_ITERATIONS_ALLOWED).optional(),
  testTimeoutSec: z.number().positive().optional(),
  agentTimeoutSec: z.number().positive().optional(),
  /** Times a failing test is re-run before an agent is asked; one that passes is flaky. */
  flakyReruns: z.number().int().min(0).max(5).optional(),
  /** Degraded iterations in a row (no agent gave a usable plan or fix) that stop the session, as with --max-degraded. */
  maxDegraded: z.number().int().min(1).max(100).optional(),
  criticality: z
    .array(
      z.strictObject({
        match: z.string().refine((re) => {
          try {
            new RegExp(re);
            return true;
          } catch {
            return false;
          }
        }, 'not a valid regular expression'),
        level: criticalitySchema,
      }),
    )
    .optional(),
  agents: z.record(z.string(), agentSchema).optional(),
  chain: z.array(z.string()).optional(),
});
export type FixcycleConfig = z.infer<typeof configSchema>;
export type AgentConfig = z.infer<typeof agentSchema>;
