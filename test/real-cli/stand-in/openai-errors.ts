/** The OpenAI error body for an HTTP status (Responses and Chat Completions share it). */
export function openaiErrorBody(status: number): unknown {
  if (status === 401)
    return {
      error: {
        message: 'Incorrect API key provided',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
        param: null,
      },
    };
  if (status === 429)
    return { error: { message: 'rate limited', type: 'requests', code: 'rate_limit_exceeded', param: null } };
  return {
    error: {
      message: `stand-in error ${status}`,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      code: null,
      param: null,
    },
  };
}
