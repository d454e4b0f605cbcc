/** One scripted answer of the model API to one model request. */
export type StandInStep =
  /** A plain assistant answer, streamed in the protocol's own shape; `delayMs` before the first byte. */
  | { type: 'text'; text: string; delayMs?: number }
  /** A tool call of the CLI's own (claude Read/Edit, gemini replace, qwen edit, opencode edit), as a function call. */
  | { type: 'tool'; name: string; input: Record<string, unknown> }
  /** codex's freeform apply_patch (a Responses `custom_tool_call`). */
  | { type: 'patch'; patch: string }
  /**
   * Expands into the CLI's own read + edit tool calls (whatever the request advertises) over consecutive
   * requests, then `text` (default "Done."). `file` is absolute (claude and qwen refuse relative paths).
   */
  | { type: 'edit'; file: string; old: string; new: string; text?: string }
  /** An HTTP error: 429 with or without retry-after, 401, 500, 503, 529; `body` defaults to the protocol's own error shape. */
  | { type: 'error'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Destroys the socket before any byte. */
  | { type: 'drop' }
  /** Sends the headers and one event, then destroys the socket. */
  | { type: 'drop-mid-stream' }
  /** Never answers (until the stand-in closes). */
  | { type: 'hang' };

export type Protocol = 'anthropic' | 'gemini' | 'responses' | 'chat';

export interface RecordedRequest {
  /** Date.now() when the request arrived. */
  at: number;
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when it is not JSON (undefined when empty). */
  body: unknown;
  protocol: Protocol;
  /** Not a model turn of the script: a probe, model list, gemini's router, opencode's title, qwen's memory extraction. */
  auxiliary: boolean;
}

/** A tool as one request advertises it to the model. */
export interface AdvertisedTool {
  name: string;
  /** `custom`: a freeform tool (codex's apply_patch), called with a plain string. */
  kind: 'function' | 'custom';
  /** The names of its parameters. */
  params: string[];
}

/** What the stand-in answers one request with, before it is put in the protocol's shape. */
export type Reply =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; name: string; input: Record<string, unknown> }
  | { kind: 'patch'; patch: string }
  /** A JSON document as the answer text (gemini's router, non-streamed). */
  | { kind: 'json'; value: unknown };

/** An auxiliary request's answer: a reply in the protocol's shape, or a document sent as it is (a model list). */
export type AuxiliaryReply = Reply | { kind: 'raw'; value: unknown };

/** Facts about the request a protocol writer needs to shape its answer. */
export interface ReplyContext {
  model: string;
  stream: boolean;
  inputTokens: number;
}

/** One model-API protocol: how to recognise its requests and how to shape answers and errors. */
export interface ProtocolSpeaker {
  protocol: Protocol;
  /** The request's model name, for echoing back. */
  model(body: Record<string, unknown>, path: string): string;
  /** Whether the answer is streamed (SSE). */
  streams(body: Record<string, unknown>, path: string): boolean;
  tools(body: Record<string, unknown>): AdvertisedTool[];
  /** The answer to a request that is not a model turn of the script, or null when it is one. */
  auxiliary(body: Record<string, unknown>, path: string): AuxiliaryReply | null;
  /** The SSE frames of a streamed answer, in order. */
  events(reply: Reply, context: ReplyContext): string[];
  /** The JSON body of an answer that is not streamed. */
  json(reply: Reply, context: ReplyContext): unknown;
  /** The protocol's own error body for an HTTP status. */
  errorBody(status: number): unknown;
}
