import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicSpeaker } from './anthropic.js';
import { chatSpeaker } from './chat.js';
import { geminiSpeaker } from './gemini.js';
import { responsesSpeaker } from './responses.js';
import { Script, type Answer, type ScriptSource } from './script.js';
import { allText, estimateTokens, isObject } from './sse.js';
import type { AuxiliaryReply, Protocol, ProtocolSpeaker, RecordedRequest, StandInStep } from './types.js';

export type { Protocol, RecordedRequest, StandInStep } from './types.js';

export interface StandIn {
  /** http://127.0.0.1:PORT (a free port). */
  url: string;
  /** Every request, in order. */
  requests: RecordedRequest[];
  /** Replaces the script: steps are used up per model request; the last repeats. */
  script(steps: ScriptSource): void;
  /** Ends every open connection (hung ones too) and stops listening. */
  close(): Promise<void>;
}

const SPEAKERS: Record<Protocol, ProtocolSpeaker> = {
  anthropic: anthropicSpeaker,
  gemini: geminiSpeaker,
  responses: responsesSpeaker,
  chat: chatSpeaker,
};

/** Which API a path belongs to, or null for one the stand-in does not serve. */
function protocolOf(method: string, path: string): Protocol | null {
  const bare = path.split('?')[0]!;
  if (method === 'HEAD' || /\/messages(\/count_tokens)?$/.test(bare)) return 'anthropic';
  if (/:(generateContent|streamGenerateContent|countTokens)$/.test(bare)) return 'gemini';
  if (/\/responses$/.test(bare)) return 'responses';
  if (/\/(chat\/completions|models)$/.test(bare)) return 'chat';
  return null;
}

/** The answer to a request that is no model turn, or null for a model request. */
function auxiliaryReply(req: RecordedRequest, speaker: ProtocolSpeaker): AuxiliaryReply | null {
  const bare = req.path.split('?')[0]!;
  if (req.method === 'HEAD' || req.method === 'GET') {
    return {
      kind: 'raw',
      value: bare.endsWith('/models')
        ? { object: 'list', data: [{ id: 'stand-in-model', object: 'model', created: 0, owned_by: 'stand-in' }] }
        : {},
    };
  }
  if (bare.endsWith('/count_tokens'))
    return { kind: 'raw', value: { input_tokens: estimateTokens(JSON.stringify(req.body ?? '')) } };
  return speaker.auxiliary(isObject(req.body) ? req.body : {}, req.path);
}

function isFailure(step: StandInStep): step is Extract<Answer, { failure: unknown }>['failure'] {
  return step.type === 'error' || step.type === 'drop' || step.type === 'drop-mid-stream' || step.type === 'hang';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A local stand-in of the model APIs the real AI CLIs call: Anthropic Messages, Gemini, OpenAI Responses and
 * Chat Completions, answering each model request with the next scripted step.
 */
export async function startStandIn(steps: StandInStep[] = []): Promise<StandIn> {
  const script = new Script();
  script.set(steps);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const send = (res: ServerResponse, reply: AuxiliaryReply, speaker: ProtocolSpeaker, req: RecordedRequest): void => {
    const body = isObject(req.body) ? req.body : {};
    const context = {
      model: speaker.model(body, req.path),
      stream: speaker.streams(body, req.path),
      inputTokens: estimateTokens(JSON.stringify(req.body ?? '')),
    };
    if (req.method === 'HEAD') {
      res.writeHead(200).end();
    } else if (reply.kind === 'raw') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.value));
    } else if (context.stream) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      for (const frame of speaker.events(reply, context)) res.write(frame);
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(speaker.json(reply, context)));
    }
  };

  const fail = (
    res: ServerResponse,
    step: Extract<Answer, { failure: unknown }>['failure'],
    speaker: ProtocolSpeaker,
    req: RecordedRequest,
  ): void => {
    if (step.type === 'hang') return;
    if (step.type === 'drop') {
      res.socket?.destroy();
      return;
    }
    if (step.type === 'drop-mid-stream') {
      const body = isObject(req.body) ? req.body : {};
      const frames = speaker.events(
        { kind: 'text', text: 'Looking at the failing test now, the problem is' },
        { model: speaker.model(body, req.path), stream: true, inputTokens: 1 },
      );
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frames[0]!, () => setImmediate(() => res.socket?.destroy()));
      return;
    }
    const payload = step.body ?? speaker.errorBody(step.status);
    res
      .writeHead(step.status, { 'content-type': 'application/json', ...step.headers })
      .end(typeof payload === 'string' ? payload : JSON.stringify(payload));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const protocol = protocolOf(method, path);
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    );
    if (!protocol) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `the stand-in does not serve ${method} ${path}` } }));
      return;
    }
    const speaker = SPEAKERS[protocol];
    const recorded: RecordedRequest = {
      at: Date.now(),
      method,
      path,
      headers,
      body: parseBody(text),
      protocol,
      auxiliary: false,
    };
    const aux = auxiliaryReply(recorded, speaker);
    recorded.auxiliary = aux !== null;
    requests.push(recorded);
    if (aux) {
      // A gateway that is down or rate-limited fails the side requests too.
      const current = method === 'POST' && aux.kind !== 'raw' ? script.peek(recorded) : undefined;
      if (current && isFailure(current)) fail(res, current, speaker, recorded);
      else send(res, aux, speaker, recorded);
      return;
    }
    const body = isObject(recorded.body) ? recorded.body : {};
    const cwd = /<cwd>([^<]+)<\/cwd>/.exec(allText(body.input ?? body.messages ?? ''))?.[1]?.trim();
    const answer = script.next(recorded, {
      protocol,
      tools: speaker.tools(body),
      userAgent: headers['user-agent'] ?? '',
      ...(cwd ? { cwd } : {}),
    });
    if ('failure' in answer) return fail(res, answer.failure, speaker, recorded);
    if (!answer.delayMs) return send(res, answer.reply, speaker, recorded);
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed && !res.destroyed) send(res, answer.reply, speaker, recorded);
    }, answer.delayMs);
    timers.add(timer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `stand-in bug: ${String(error)}` } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (source) => script.set(source),
    close: async () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
