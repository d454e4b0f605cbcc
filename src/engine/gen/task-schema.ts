import { z } from 'zod';

/** A task file in the design's shape: id, title, status, meta, context, flow_control. */
export const genTaskSchema = z.looseObject({
  id: z.string().regex(/^IMPL-\d{3}(\.\d+)?$/),
  title: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed', 'blocked']),
  meta: z.looseObject({
    type: z.enum(['test-gen', 'code-validation', 'test-quality-review', 'test-fix']),
    agent: z.string(),
  }),
  context: z.looseObject({
    requirements: z.array(z.string()).min(1),
    focus_paths: z.array(z.string()),
    acceptance: z.array(z.string()).min(1),
    depends_on: z.array(z.string()),
  }),
  flow_control: z.looseObject({
    pre_analysis: z.array(z.looseObject({ step: z.string(), command: z.string(), output_to: z.string() })),
    implementation_approach: z
      .array(z.looseObject({ step: z.number().int(), title: z.string(), description: z.string() }))
      .min(1),
    target_files: z.array(z.string()),
  }),
});
export type GenTask = z.infer<typeof genTaskSchema>;
