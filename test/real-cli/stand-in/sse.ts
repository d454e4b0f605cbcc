/** One server-sent event: `event:` line only when the protocol names its events. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

let counter = 0;

/** A fresh id with the protocol's prefix (`msg_`, `call_`, `resp_` ...). */
export function freshId(prefix: string): string {
  counter += 1;
  return `${prefix}standin${Date.now().toString(36)}${counter}`;
}

/** A rough token count (4 characters a token): enough for CLIs that show tokens and cost. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The text a reply carries, for token counts. */
export function replyText(reply: {
  kind: string;
  text?: string;
  patch?: string;
  input?: unknown;
  value?: unknown;
}): string {
  return reply.text ?? reply.patch ?? JSON.stringify(reply.input ?? reply.value ?? '');
}

/** Splits a text into two streamed pieces, as real APIs stream more than one delta. */
export function splitText(text: string): string[] {
  if (text.length < 8) return [text];
  const cut = Math.floor(text.length / 2);
  return [text.slice(0, cut), text.slice(cut)];
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** All text inside a JSON value (messages, system prompts), joined: for recognising auxiliary requests. */
export function allText(value: unknown, limit = 20_000): string {
  const out: string[] = [];
  let size = 0;
  const walk = (v: unknown): void => {
    if (size > limit) return;
    if (typeof v === 'string') {
      out.push(v);
      size += v.length;
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
  };
  walk(value);
  return out.join('\n');
}
