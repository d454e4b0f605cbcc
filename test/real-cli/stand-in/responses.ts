import type { AdvertisedTool, ProtocolSpeaker, Reply, ReplyContext } from './types.js';
import { estimateTokens, freshId, isObject, replyText, splitText, sseFrame } from './sse.js';
import { openaiErrorBody } from './openai-errors.js';

/** The finished output item of a reply. */
function outputItem(reply: Reply): Record<string, unknown> {
  if (reply.kind === 'patch')
    return {
      type: 'custom_tool_call',
      id: freshId('ctc_'),
      call_id: freshId('call_'),
      name: 'apply_patch',
      input: reply.patch,
      status: 'completed',
    };
  if (reply.kind === 'tool')
    return {
      type: 'function_call',
      id: freshId('fc_'),
      call_id: freshId('call_'),
      name: reply.name,
      arguments: JSON.stringify(reply.input),
      status: 'completed',
    };
  const text = reply.kind === 'json' ? JSON.stringify(reply.value) : reply.text;
  return {
    type: 'message',
    id: freshId('msg_'),
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function response(
  id: string,
  context: ReplyContext,
  status: string,
  output: unknown[],
  reply?: Reply,
): Record<string, unknown> {
  const outputTokens = reply ? estimateTokens(replyText(reply)) : 0;
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: context.model,
    output,
    ...(reply
      ? {
          usage: {
            input_tokens: context.inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: context.inputTokens + outputTokens,
          },
        }
      : {}),
  };
}

/** The delta events between `output_item.added` and `output_item.done`, by item type. */
function deltaEvents(item: Record<string, unknown>, seq: () => number): string[] {
  const base = { item_id: item.id, output_index: 0 };
  if (item.type === 'custom_tool_call') {
    return [
      sseFrame(
        { type: 'response.custom_tool_call_input.delta', sequence_number: seq(), ...base, delta: item.input },
        'response.custom_tool_call_input.delta',
      ),
      sseFrame(
        { type: 'response.custom_tool_call_input.done', sequence_number: seq(), ...base, input: item.input },
        'response.custom_tool_call_input.done',
      ),
    ];
  }
  if (item.type === 'function_call') {
    return [
      sseFrame(
        { type: 'response.function_call_arguments.delta', sequence_number: seq(), ...base, delta: item.arguments },
        'response.function_call_arguments.delta',
      ),
      sseFrame(
        { type: 'response.function_call_arguments.done', sequence_number: seq(), ...base, arguments: item.arguments },
        'response.function_call_arguments.done',
      ),
    ];
  }
  const content = item.content as { text: string }[];
  const text = content[0]!.text;
  const part = { ...base, content_index: 0 };
  return [
    sseFrame(
      {
        type: 'response.content_part.added',
        sequence_number: seq(),
        ...part,
        part: { type: 'output_text', text: '', annotations: [] },
      },
      'response.content_part.added',
    ),
    ...splitText(text).map((delta) =>
      sseFrame(
        { type: 'response.output_text.delta', sequence_number: seq(), ...part, delta },
        'response.output_text.delta',
      ),
    ),
    sseFrame({ type: 'response.output_text.done', sequence_number: seq(), ...part, text }, 'response.output_text.done'),
    sseFrame(
      { type: 'response.content_part.done', sequence_number: seq(), ...part, part: content[0] },
      'response.content_part.done',
    ),
  ];
}

/** OpenAI Responses API (`POST /v1/responses`), SSE from `response.created` to `response.completed` with usage. */
export const responsesSpeaker: ProtocolSpeaker = {
  protocol: 'responses',
  model: (body) => (typeof body.model === 'string' ? body.model : 'gpt-stand-in'),
  streams: (body) => body.stream === true,
  tools(body): AdvertisedTool[] {
    const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
    return tools
      .filter((tool) => typeof tool.name === 'string')
      .map((tool) => ({
        name: String(tool.name),
        kind: tool.type === 'custom' ? 'custom' : 'function',
        params:
          isObject(tool.parameters) && isObject(tool.parameters.properties)
            ? Object.keys(tool.parameters.properties)
            : [],
      }));
  },
  auxiliary: () => null,
  events(reply, context) {
    let n = 0;
    const seq = (): number => n++;
    const id = freshId('resp_');
    const item = outputItem(reply);
    const opened =
      item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : { ...item, status: 'in_progress' };
    return [
      sseFrame(
        { type: 'response.created', sequence_number: seq(), response: response(id, context, 'in_progress', []) },
        'response.created',
      ),
      sseFrame(
        { type: 'response.in_progress', sequence_number: seq(), response: response(id, context, 'in_progress', []) },
        'response.in_progress',
      ),
      sseFrame(
        { type: 'response.output_item.added', sequence_number: seq(), output_index: 0, item: opened },
        'response.output_item.added',
      ),
      ...deltaEvents(item, seq),
      sseFrame(
        { type: 'response.output_item.done', sequence_number: seq(), output_index: 0, item },
        'response.output_item.done',
      ),
      sseFrame(
        {
          type: 'response.completed',
          sequence_number: seq(),
          response: response(id, context, 'completed', [item], reply),
        },
        'response.completed',
      ),
    ];
  },
  json(reply, context) {
    return response(freshId('resp_'), context, 'completed', [outputItem(reply)], reply);
  },
  errorBody: openaiErrorBody,
};
