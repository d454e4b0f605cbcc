/** How an agent run was judged. */
export type AgentClassification =
  | 'ok'
  | 'rate_limited'
  | 'auth_error'
  | 'timeout'
  | 'failed'
  | 'invalid_plan'
  | 'low_confidence'
  | 'not_found'
  | 'rejected';
