import type { AdvertisedTool, ProtocolSpeaker, Reply, ReplyContext } from './types.js';
import { allText, estimateTokens, freshId, isObject, replyText, splitText, sseFrame } from './sse.js';
import { openaiErrorBody } from './openai-errors.js';

/** The system prompt of a request (the first system message's text). */
function systemText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  return allText(messages.filter((m) => m.role === 'system').map((m) => m.content));
}

function toolCall(
  reply: Reply,
): { id: string; type: 'function'; function: { name: string; arguments: string } } | undefined {
  if (reply.kind === 'tool')
    return {
      id: freshId('call_'),
      type: 'function',
      function: { name: reply.name, arguments: JSON.stringify(reply.input) },
    };
  if (reply.kind === 'patch')
    return {
      id: freshId('call_'),
      type: 'function',
      function: { name: 'apply_patch', arguments: JSON.stringify({ patch: reply.patch }) },
    };
  return undefined;
}

function text(reply: Reply): string {
  return reply.kind === 'json' ? JSON.stringify(reply.value) : reply.kind === 'text' ? reply.text : '';
}

function usage(context: ReplyContext, reply: Reply): Record<string, number> {
  const out = estimateTokens(replyText(reply));
  return { prompt_tokens: context.inputTokens, completion_tokens: out, total_tokens: context.inputTokens + out };
}

/** OpenAI Chat Completions (`POST /v1/chat/completions`), streamed as `chat.completion.chunk`s, a usage chunk, `[DONE]`. */
export const chatSpeaker: ProtocolSpeaker = {
  protocol: 'chat',
  model: (body) => (typeof body.model === 'string' ? body.model : 'stand-in-model'),
  streams: (body) => body.stream === true,
  tools(body): AdvertisedTool[] {
    const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
    return tools.map((tool) => {
      const fn = isObject(tool.function) ? tool.function : {};
      const params =
        isObject(fn.parameters) && isObject(fn.parameters.properties) ? Object.keys(fn.parameters.properties) : [];
      return { name: String(fn.name), kind: 'function', params };
    });
  },
  auxiliary(body) {
    const system = systemText(body);
    // opencode names each session with a tool-less request to its small model.
    if (/You are a title generator/i.test(system)) return { kind: 'text', text: 'Fix failing add test' };
    // qwen's managed-memory subagent re-reads the conversation after a session; nothing worth keeping.
    if (/memory extraction subagent/i.test(system)) return { kind: 'text', text: 'Nothing to remember.' };
    return null;
  },
  events(reply, context) {
    const id = freshId('chatcmpl-');
    const created = Math.floor(Date.now() / 1000);
    const frame = (delta: Record<string, unknown>, finish: string | null): string =>
      sseFrame({
        id,
        object: 'chat.completion.chunk',
        created,
        model: context.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    const call = toolCall(reply);
    const frames: string[] = [];
    if (call) {
      frames.push(
        frame(
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
            ],
          },
          null,
        ),
      );
      frames.push(frame({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }, null));
      frames.push(frame({}, 'tool_calls'));
    } else {
      splitText(text(reply)).forEach((piece, i) =>
        frames.push(frame(i === 0 ? { role: 'assistant', content: piece } : { content: piece }, null)),
      );
      frames.push(frame({}, 'stop'));
    }
    frames.push(
      sseFrame({
        id,
        object: 'chat.completion.chunk',
        created,
        model: context.model,
        choices: [],
        usage: usage(context, reply),
      }),
    );
    frames.push(sseFrame('[DONE]'));
    return frames;
  },
  json(reply, context) {
    const call = toolCall(reply);
    const message = call
      ? { role: 'assistant', content: null, tool_calls: [call] }
      : { role: 'assistant', content: text(reply) };
    return {
      id: freshId('chatcmpl-'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: context.model,
      choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }],
      usage: usage(context, reply),
    };
  },
  errorBody: openaiErrorBody,
};
