import type { AdvertisedTool, ProtocolSpeaker, Reply, ReplyContext } from './types.js';
import { estimateTokens, isObject, replyText, splitText, sseFrame } from './sse.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** A value that fits a JSON schema: for gemini's utility calls (the router's complexity score, next-speaker checks). */
export function sampleFor(schema: unknown): unknown {
  if (!isObject(schema)) return null;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type =
    typeof schema.type === 'string'
      ? schema.type.toLowerCase()
      : Array.isArray(schema.type)
        ? String(schema.type[0]).toLowerCase()
        : 'object';
  if (type === 'object') {
    const props = isObject(schema.properties) ? schema.properties : {};
    return Object.fromEntries(Object.entries(props).map(([key, sub]) => [key, sampleFor(sub)]));
  }
  if (type === 'array') return [];
  if (type === 'number' || type === 'integer') return 10;
  if (type === 'boolean') return false;
  return 'A simple, single-step request.';
}

function parts(reply: Reply): Record<string, unknown>[] {
  if (reply.kind === 'tool') return [{ functionCall: { name: reply.name, args: reply.input } }];
  if (reply.kind === 'patch') return [{ functionCall: { name: 'apply_patch', args: { patch: reply.patch } } }];
  if (reply.kind === 'json') return [{ text: JSON.stringify(reply.value) }];
  return [{ text: reply.text }];
}

function chunk(
  chunkParts: Record<string, unknown>[],
  context: ReplyContext,
  reply: Reply,
  last: boolean,
): Record<string, unknown> {
  const output = estimateTokens(replyText(reply));
  return {
    candidates: [
      { content: { role: 'model', parts: chunkParts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
    ],
    usageMetadata: {
      promptTokenCount: context.inputTokens,
      candidatesTokenCount: output,
      totalTokenCount: context.inputTokens + output,
    },
    modelVersion: context.model,
  };
}

/** Gemini API: `models/<m>:generateContent` (JSON) and `:streamGenerateContent?alt=sse` (`data:` chunks). */
export const geminiSpeaker: ProtocolSpeaker = {
  protocol: 'gemini',
  model: (_body, path) => /models\/([^:/?]+)/.exec(path)?.[1] ?? 'gemini-stand-in',
  streams: (_body, path) => path.includes(':streamGenerateContent'),
  tools(body): AdvertisedTool[] {
    const groups = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
    return groups
      .flatMap((group) =>
        Array.isArray(group.functionDeclarations) ? group.functionDeclarations.filter(isObject) : [],
      )
      .map((decl) => {
        const schema = isObject(decl.parametersJsonSchema)
          ? decl.parametersJsonSchema
          : isObject(decl.parameters)
            ? decl.parameters
            : {};
        return {
          name: String(decl.name),
          kind: 'function',
          params: Object.keys(isObject(schema.properties) ? schema.properties : {}),
        };
      });
  },
  auxiliary(body, path) {
    if (path.includes(':countTokens')) return { kind: 'raw', value: { totalTokens: 100 } };
    const config = isObject(body.generationConfig) ? body.generationConfig : {};
    const schema = config.responseJsonSchema ?? config.responseSchema;
    // A JSON-schema answer is a utility call (the "auto" model's router), not a turn of the conversation.
    return schema !== undefined ? { kind: 'json', value: sampleFor(schema) } : null;
  },
  events(reply, context) {
    const all = parts(reply);
    if (reply.kind !== 'text') return [sseFrame(chunk(all, context, reply, true))];
    const pieces = splitText(reply.text);
    return pieces.map((text, i) => sseFrame(chunk([{ text }], context, reply, i === pieces.length - 1)));
  },
  json(reply, context) {
    return chunk(parts(reply), context, reply, true);
  },
  errorBody(status) {
    const message =
      status === 429
        ? 'rate limited'
        : status === 401
          ? 'API key not valid. Please pass a valid API key.'
          : status === 503
            ? 'overloaded'
            : `stand-in error ${status}`;
    return { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } };
  },
};
