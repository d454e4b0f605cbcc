import type { AdvertisedTool, ProtocolSpeaker, Reply, ReplyContext } from './types.js';
import { estimateTokens, freshId, isObject, replyText, splitText, sseFrame } from './sse.js';

/** The Anthropic error type a status stands for. */
function errorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 400) return 'invalid_request_error';
  return 'api_error';
}

/** A reply as Anthropic content blocks (a patch becomes an `apply_patch` tool call). */
function contentBlock(reply: Reply): Record<string, unknown> {
  if (reply.kind === 'tool') return { type: 'tool_use', id: freshId('toolu_'), name: reply.name, input: reply.input };
  if (reply.kind === 'patch')
    return { type: 'tool_use', id: freshId('toolu_'), name: 'apply_patch', input: { patch: reply.patch } };
  return { type: 'text', text: reply.kind === 'json' ? JSON.stringify(reply.value) : reply.text };
}

function usage(context: ReplyContext, reply: Reply): Record<string, number> {
  return {
    input_tokens: context.inputTokens,
    output_tokens: estimateTokens(replyText(reply)),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** Anthropic Messages API (`POST /v1/messages`), SSE: message_start, content blocks, message_delta, message_stop. */
export const anthropicSpeaker: ProtocolSpeaker = {
  protocol: 'anthropic',
  model: (body) => (typeof body.model === 'string' ? body.model : 'claude-stand-in'),
  streams: (body) => body.stream === true,
  tools(body): AdvertisedTool[] {
    const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
    return tools.map((tool) => {
      const schema =
        isObject(tool.input_schema) && isObject(tool.input_schema.properties) ? tool.input_schema.properties : {};
      return { name: String(tool.name), kind: 'function', params: Object.keys(schema) };
    });
  },
  // Claude Code sends no side requests once CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is set.
  auxiliary: () => null,
  events(reply, context) {
    const block = contentBlock(reply);
    const stopReason = block.type === 'tool_use' ? 'tool_use' : 'end_turn';
    const id = freshId('msg_');
    const frames = [
      sseFrame(
        {
          type: 'message_start',
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model: context.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...usage(context, reply), output_tokens: 1 },
          },
        },
        'message_start',
      ),
    ];
    if (block.type === 'tool_use') {
      frames.push(
        sseFrame(
          { type: 'content_block_start', index: 0, content_block: { ...block, input: {} } },
          'content_block_start',
        ),
      );
      frames.push(
        sseFrame(
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
          },
          'content_block_delta',
        ),
      );
    } else {
      frames.push(
        sseFrame(
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          'content_block_start',
        ),
      );
      frames.push(sseFrame({ type: 'ping' }, 'ping'));
      for (const piece of splitText(String(block.text))) {
        frames.push(
          sseFrame(
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } },
            'content_block_delta',
          ),
        );
      }
    }
    frames.push(sseFrame({ type: 'content_block_stop', index: 0 }, 'content_block_stop'));
    frames.push(
      sseFrame(
        {
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: estimateTokens(replyText(reply)) },
        },
        'message_delta',
      ),
    );
    frames.push(sseFrame({ type: 'message_stop' }, 'message_stop'));
    return frames;
  },
  json(reply, context) {
    const block = contentBlock(reply);
    return {
      id: freshId('msg_'),
      type: 'message',
      role: 'assistant',
      model: context.model,
      content: [block],
      stop_reason: block.type === 'tool_use' ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: usage(context, reply),
    };
  },
  errorBody(status) {
    return {
      type: 'error',
      error: { type: errorType(status), message: status === 401 ? 'invalid x-api-key' : `stand-in error ${status}` },
    };
  },
};
