import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn, type StandInStep } from './stand-in/server.js';

let standIn: StandIn | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(steps: StandInStep[] = []): Promise<StandIn> {
  standIn = await startStandIn(steps);
  return standIn;
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${standIn!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body, with their `event:` names. */
async function sse(response: Response): Promise<{ event?: string; data: any }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.trim())
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)![1]!;
      return { ...(event ? { event } : {}), data: data === '[DONE]' ? data : JSON.parse(data) };
    });
}

function buggyFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stand-in-test-'));
  dirs.push(dir);
  const file = join(dir, 'src-math.js');
  writeFileSync(file, 'export function add(a, b) {\n  return a - b;\n}\n');
  return file;
}

const anthropicTools = [
  { name: 'Read', input_schema: { type: 'object', properties: { file_path: {}, offset: {}, limit: {} } } },
  {
    name: 'Edit',
    input_schema: { type: 'object', properties: { file_path: {}, old_string: {}, new_string: {}, replace_all: {} } },
  },
];

describe('Anthropic Messages', () => {
  it('streams a text answer as message_start, content blocks, message_delta and message_stop', async () => {
    await start([{ type: 'text', text: 'The add function subtracts.' }]);
    const events = await sse(await post('/v1/messages?beta=true', { model: 'claude-x', stream: true, messages: [] }));
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]!.data.message.model).toBe('claude-x');
    expect(
      events
        .filter((e) => e.event === 'content_block_delta')
        .map((e) => e.data.delta.text)
        .join(''),
    ).toBe('The add function subtracts.');
    expect(events[6]!.data.delta.stop_reason).toBe('end_turn');
    expect(events[6]!.data.usage.output_tokens).toBeGreaterThan(0);
  });

  it('answers the HEAD probe without using up a step', async () => {
    const s = await start([{ type: 'text', text: 'first' }]);
    expect((await fetch(s.url, { method: 'HEAD' })).status).toBe(200);
    const json = (await (await post('/v1/messages', { model: 'm', messages: [] })).json()) as any;
    expect(json.content[0].text).toBe('first');
    expect(s.requests.map((r) => [r.method, r.auxiliary])).toEqual([
      ['HEAD', true],
      ['POST', false],
    ]);
  });

  it('expands an edit into Read, then Edit with the absolute path, then the text', async () => {
    const file = buggyFile();
    await start([
      { type: 'edit', file, old: 'return a - b;', new: 'return a + b;', text: 'Fixed.' },
      { type: 'text', text: 'after' },
    ]);
    const turn = async (): Promise<any> =>
      await sse(await post('/v1/messages', { model: 'm', stream: true, tools: anthropicTools, messages: [] }));
    const read = await turn();
    expect(read[1].data.content_block).toMatchObject({ type: 'tool_use', name: 'Read' });
    expect(JSON.parse(read[2].data.delta.partial_json)).toEqual({ file_path: file });
    expect(read.find((e: any) => e.event === 'message_delta').data.delta.stop_reason).toBe('tool_use');
    const edit = await turn();
    expect(edit[1].data.content_block.name).toBe('Edit');
    expect(JSON.parse(edit[2].data.delta.partial_json)).toEqual({
      file_path: file,
      old_string: 'return a - b;',
      new_string: 'return a + b;',
    });
    const done = await turn();
    expect(
      done
        .filter((e: any) => e.event === 'content_block_delta')
        .map((e: any) => e.data.delta.text)
        .join(''),
    ).toBe('Fixed.');
    const next = await turn();
    expect(
      next
        .filter((e: any) => e.event === 'content_block_delta')
        .map((e: any) => e.data.delta.text)
        .join(''),
    ).toBe('after');
  });

  it('answers errors in Anthropic shape with the scripted headers', async () => {
    await start([
      { type: 'error', status: 429, headers: { 'retry-after': '30' } },
      { type: 'error', status: 401 },
      { type: 'error', status: 529 },
    ]);
    const limited = await post('/v1/messages', { stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(((await limited.json()) as any).error.type).toBe('rate_limit_error');
    expect(((await (await post('/v1/messages', {})).json()) as any).error.type).toBe('authentication_error');
    const overloaded = await post('/v1/messages', {});
    expect([overloaded.status, ((await overloaded.json()) as any).error.type]).toEqual([529, 'overloaded_error']);
  });
});

describe('Gemini', () => {
  const routerBody = {
    contents: [],
    generationConfig: {
      responseMimeType: 'application/json',
      responseJsonSchema: {
        type: 'object',
        properties: { complexity_reasoning: { type: 'string' }, complexity_score: { type: 'number' } },
      },
    },
  };

  it("answers the router's JSON-schema call without using up a step", async () => {
    const s = await start([{ type: 'text', text: 'main answer' }]);
    const router = (await (
      await post('/v1beta/models/gemini-3.5-flash-lite:generateContent', routerBody)
    ).json()) as any;
    const verdict = JSON.parse(router.candidates[0].content.parts[0].text);
    expect(typeof verdict.complexity_score).toBe('number');
    expect(typeof verdict.complexity_reasoning).toBe('string');
    const chunks = await sse(
      await post('/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse', { contents: [] }),
    );
    expect(chunks.map((c) => c.data.candidates[0].content.parts[0].text).join('')).toBe('main answer');
    expect(chunks.at(-1)!.data.candidates[0].finishReason).toBe('STOP');
    expect(chunks.at(-1)!.data.usageMetadata.totalTokenCount).toBeGreaterThan(0);
    expect(s.requests.map((r) => r.auxiliary)).toEqual([true, false]);
  });

  it('expands an edit into replace with an instruction, then the text', async () => {
    const file = buggyFile();
    await start([{ type: 'edit', file, old: 'return a - b;', new: 'return a + b;' }]);
    const tools = [
      {
        functionDeclarations: [
          { name: 'read_file', parametersJsonSchema: { properties: { file_path: {} } } },
          {
            name: 'replace',
            parametersJsonSchema: { properties: { file_path: {}, instruction: {}, old_string: {}, new_string: {} } },
          },
        ],
      },
    ];
    const turn = async (): Promise<any> =>
      (await sse(await post('/v1beta/models/m:streamGenerateContent?alt=sse', { contents: [], tools })))[0]!.data
        .candidates[0].content.parts[0];
    const call = (await turn()).functionCall;
    expect(call.name).toBe('replace');
    expect(call.args).toMatchObject({ file_path: file, old_string: 'return a - b;', new_string: 'return a + b;' });
    expect(call.args.instruction).toMatch(/\S/);
    expect((await turn()).text).toBe('Done.');
  });

  it('fails the router call too while the API is rate-limited', async () => {
    const s = await start([{ type: 'error', status: 429 }]);
    const router = await post('/v1beta/models/gemini-3.5-flash-lite:generateContent', routerBody);
    expect(router.status).toBe(429);
    expect(((await router.json()) as any).error.status).toBe('RESOURCE_EXHAUSTED');
    expect(s.requests[0]!.auxiliary).toBe(true);
  });
});

describe('OpenAI Responses', () => {
  it('streams response.created ... response.output_item.done, response.completed with usage', async () => {
    await start([{ type: 'text', text: 'Plan follows.' }]);
    const events = await sse(await post('/v1/responses', { model: 'gpt-5.5', stream: true, input: [] }));
    expect(events[0]!.event).toBe('response.created');
    expect(events.at(-2)!.data).toMatchObject({
      type: 'response.output_item.done',
      item: { type: 'message', content: [{ type: 'output_text', text: 'Plan follows.' }] },
    });
    expect(events.at(-1)!.data.type).toBe('response.completed');
    expect(events.at(-1)!.data.response.usage.total_tokens).toBeGreaterThan(0);
  });

  it("expands an edit into codex's apply_patch custom tool call, relative to its cwd, keeping indentation", async () => {
    const file = buggyFile();
    const cwd = join(file, '..');
    await start([{ type: 'edit', file, old: 'return a - b;', new: 'return a + b;' }]);
    const body = {
      model: 'gpt-5.5',
      stream: true,
      tools: [
        { type: 'custom', name: 'apply_patch', format: {} },
        { type: 'function', name: 'exec_command', parameters: { properties: { cmd: {} } } },
      ],
      input: [
        {
          role: 'user',
          content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` }],
        },
      ],
    };
    const done = (await sse(await post('/v1/responses', body))).find((e) => e.event === 'response.output_item.done')!
      .data.item;
    expect(done).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch' });
    expect(done.input).toBe(
      '*** Begin Patch\n*** Update File: src-math.js\n@@\n-  return a - b;\n+  return a + b;\n*** End Patch\n',
    );
    const text = (await sse(await post('/v1/responses', body))).find((e) => e.event === 'response.output_item.done')!
      .data.item;
    expect(text.content[0].text).toBe('Done.');
  });

  it('sends a function call for a tool step', async () => {
    await start([{ type: 'tool', name: 'exec_command', input: { cmd: 'touch x' } }]);
    const item = (await sse(await post('/v1/responses', { stream: true }))).find(
      (e) => e.event === 'response.output_item.done',
    )!.data.item;
    expect(item).toMatchObject({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"touch x"}' });
  });
});

describe('Chat Completions', () => {
  const qwenTools = [
    { type: 'function', function: { name: 'read_file', parameters: { properties: { file_path: {} } } } },
    {
      type: 'function',
      function: { name: 'edit', parameters: { properties: { file_path: {}, old_string: {}, new_string: {} } } },
    },
  ];
  const opencodeTools = [
    { type: 'function', function: { name: 'read', parameters: { properties: { filePath: {}, offset: {} } } } },
    {
      type: 'function',
      function: {
        name: 'edit',
        parameters: { properties: { filePath: {}, oldString: {}, newString: {}, replaceAll: {} } },
      },
    },
  ];
  const toolCallOf = async (response: Response): Promise<any> => {
    const chunks = await sse(response);
    const first = chunks[0]!.data.choices[0].delta.tool_calls[0];
    return {
      name: first.function.name,
      args: JSON.parse(chunks[1]!.data.choices[0].delta.tool_calls[0].function.arguments),
      finish: chunks[2]!.data.choices[0].finish_reason,
    };
  };

  it('streams chunks, a finish_reason, a usage chunk and [DONE]', async () => {
    await start([{ type: 'text', text: 'Here is the plan.' }]);
    const chunks = await sse(
      await post('/v1/chat/completions', { model: 'stand-in-model', stream: true, messages: [] }),
    );
    expect(
      chunks
        .slice(0, -3)
        .map((c) => c.data.choices[0].delta.content)
        .join(''),
    ).toBe('Here is the plan.');
    expect(chunks.at(-3)!.data.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-2)!.data.usage.total_tokens).toBeGreaterThan(0);
    expect(chunks.at(-1)!.data).toBe('[DONE]');
  });

  it("expands an edit into qwen's read_file then edit with file_path", async () => {
    const file = buggyFile();
    await start([{ type: 'edit', file, old: 'return a - b;', new: 'return a + b;' }]);
    const body = { stream: true, tools: qwenTools, messages: [] };
    expect(await toolCallOf(await post('/v1/chat/completions', body))).toEqual({
      name: 'read_file',
      args: { file_path: file },
      finish: 'tool_calls',
    });
    expect((await toolCallOf(await post('/v1/chat/completions', body))).args).toEqual({
      file_path: file,
      old_string: 'return a - b;',
      new_string: 'return a + b;',
    });
  });

  it("expands an edit into opencode's read then edit with filePath/oldString/newString", async () => {
    const file = buggyFile();
    await start([{ type: 'edit', file, old: 'return a - b;', new: 'return a + b;' }]);
    const body = { stream: true, tools: opencodeTools, messages: [] };
    expect((await toolCallOf(await post('/v1/chat/completions', body))).name).toBe('read');
    expect(await toolCallOf(await post('/v1/chat/completions', body))).toEqual({
      name: 'edit',
      args: { filePath: file, oldString: 'return a - b;', newString: 'return a + b;' },
      finish: 'tool_calls',
    });
  });

  it("answers opencode's title request, qwen's memory extraction and the model list without using up a step", async () => {
    const s = await start([
      { type: 'text', text: 'the real answer' },
      { type: 'text', text: 'second' },
    ]);
    const title = await sse(
      await post('/v1/chat/completions', {
        stream: true,
        messages: [{ role: 'system', content: 'You are a title generator. You output ONLY a thread title.' }],
      }),
    );
    expect(title[0]!.data.choices[0].delta.content).toBeTruthy();
    await sse(
      await post('/v1/chat/completions', {
        stream: true,
        messages: [
          {
            role: 'system',
            content: [
              { type: 'text', text: 'You are the managed memory extraction subagent for an AI coding assistant.' },
            ],
          },
        ],
      }),
    );
    const models = (await (await fetch(`${s.url}/v1/models`)).json()) as any;
    expect(models.data[0].id).toBe('stand-in-model');
    const main = await sse(
      await post('/v1/chat/completions', { stream: true, messages: [{ role: 'user', content: 'fix it' }] }),
    );
    expect(
      main
        .slice(0, -3)
        .map((c) => c.data.choices[0].delta.content)
        .join(''),
    ).toBe('the real answer');
    expect(s.requests.map((r) => r.auxiliary)).toEqual([true, true, true, false]);
  });
});

describe('failures and scripting', () => {
  it('drops the connection before any byte', async () => {
    await start([{ type: 'drop' }]);
    await expect(post('/v1/chat/completions', { stream: true })).rejects.toThrow();
  });

  it('drops the connection after the headers and one event', async () => {
    await start([{ type: 'drop-mid-stream' }]);
    const response = await post('/v1/messages', { stream: true });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('hangs until the stand-in closes', async () => {
    const s = await start([{ type: 'hang' }]);
    const pending = post('/v1/responses', { stream: true });
    let settled = false;
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    while (s.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    await s.close();
    standIn = undefined;
    await expect(pending).rejects.toThrow();
  });

  it('answers a delayed text step, and closes cleanly while one is still waiting', async () => {
    const s = await start([
      { type: 'text', text: 'late', delayMs: 20 },
      { type: 'text', text: 'never sent', delayMs: 600_000 },
    ]);
    expect(((await (await post('/v1/chat/completions', {})).json()) as any).choices[0].message.content).toBe('late');
    const pending = post('/v1/chat/completions', {});
    while (s.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await s.close();
    standIn = undefined;
    await expect(pending).rejects.toThrow();
  });

  it('repeats the last step and lets a function script by index', async () => {
    const s = await start([
      { type: 'error', status: 500 },
      { type: 'text', text: 'ok' },
    ]);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post('/v1/chat/completions', {})).status);
    expect(statuses).toEqual([500, 200, 200]);
    s.script((req, index) =>
      index < 2
        ? { type: 'error', status: 503, headers: { 'retry-after': '2' } }
        : { type: 'text', text: `after ${req.protocol}` },
    );
    expect((await post('/v1/chat/completions', {})).status).toBe(503);
    expect((await post('/v1/chat/completions', {})).status).toBe(503);
    expect(((await (await post('/v1/chat/completions', {})).json()) as any).choices[0].message.content).toBe(
      'after chat',
    );
  });

  it('records every request with its protocol, headers and body', async () => {
    const s = await start();
    await post('/v1/responses', { model: 'gpt-5.5', input: [] }, { authorization: 'Bearer sk-x' });
    expect(s.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/responses',
      protocol: 'responses',
      auxiliary: false,
      body: { model: 'gpt-5.5' },
    });
    expect(s.requests[0]!.headers.authorization).toBe('Bearer sk-x');
    expect((await post('/v1/unknown', {})).status).toBe(404);
  });
});
