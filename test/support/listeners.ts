/**
 * Shared by the test/listeners-*.test.ts files: servers on 127.0.0.1 that answer each request with
 * the next scripted reply, writing their chunks slowly (`useScriptedServers()`, `scripted()`), a
 * client of one, a stream's first events and the events of a stream and of a run, and a tool.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  Client,
  type CallSummary,
  type ChatCompletionMessageParam,
  type ChatCompletionRunner,
  type ChatCompletionRunnerEvents,
  type ChatCompletionStream,
  type ChatCompletionStreamingRunner,
  type ChatCompletionStreamEvents,
  type RunnableFunctionTool,
} from '../../src/index';
import { pause, useFaultServers, type FaultServer } from './fault-server';

export const KEY = 'sk-listeners-SECRET-0123456789';

let faultServer: ReturnType<typeof useFaultServers>['faultServer'];
/** Closes the servers of `scripted()` after each test of the file. */
export function useScriptedServers(): void {
  ({ faultServer } = useFaultServers());
}

export const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
export const choice = (delta: object, finish_reason: string | null = null) => ({ id: 'chatcmpl-l', object: 'chat.completion.chunk', created: 1, model: 'mock/echo', choices: [{ index: 0, delta, finish_reason }] });
export const usage = { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 };

/** What one request is answered with: a JSON body, or events (`tail` more content chunks after them, `gap` ms apart). */
export type Reply = { json: unknown } | { events: unknown[]; tail?: number; gap?: number; end?: unknown[] };

/** A server answering each request with the next reply; `written[i]` counts the events request i got. */
export async function scripted(...replies: Reply[]): Promise<{ server: FaultServer; written: number[]; total: number[] }> {
  const written: number[] = [];
  const total: number[] = [];
  let n = 0;
  const server = await faultServer(async (_req: IncomingMessage, res: ServerResponse) => {
    const reply = replies[Math.min(n++, replies.length - 1)]!;
    if ('json' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.json));
      return;
    }
    const i = written.push(0) - 1;
    const tail = reply.tail ?? 0;
    const end = reply.end ?? [choice({}, 'stop'), { ...choice({}), choices: [], usage }, '[DONE]'];
    total.push(reply.events.length + tail + end.length);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const write = (event: unknown) => {
      res.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
      written[i]!++;
    };
    reply.events.forEach(write);
    for (let t = 0; t < tail; t++) {
      if (!(await pause(res, reply.gap ?? 20))) return;
      write(choice({ content: `${t} ` }));
    }
    end.forEach(write);
    res.end();
  });
  return { server, written, total };
}

export const client = (server: FaultServer, ends: CallSummary[] = []) =>
  new Client({ apiKey: KEY, baseURL: server.url, maxRetries: 0, logLevel: 'off', hooks: { name: 'ends', onEnd: (summary) => void ends.push(summary) } });

/** A stream's first events: every event of the first choice that can come before its end. */
export const head = [
  choice({ role: 'assistant', content: '' }),
  choice({ reasoning_content: 'Thinking ' }),
  choice({ reasoning_content: 'hard.' }),
  choice({ refusal: 'No ' }),
  choice({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }),
  choice({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  choice({ tool_calls: [{ index: 1, id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] }),
  choice({ content: 'Sunny ' }),
  choice({ content: 'in Paris. ' }),
];
/** 250 chunks 20 ms apart: the server is still writing for 5 s, unless the client goes away. */
export const LONG: Reply = { events: head, tail: 250 };
export const SHORT: Reply = { events: head };

export type StreamEvent = keyof ChatCompletionStreamEvents;
/** Events told while the server is still sending. */
export const MID: StreamEvent[] = ['chunk', 'content', 'content.delta', 'reasoning.delta', 'refusal.delta', 'tool_calls.function.arguments.delta', 'tool_calls.function.arguments.done'];
/** Events told at the end of a stream that went well. */
export const LAST: StreamEvent[] = ['reasoning.done', 'content.done', 'refusal.done', 'finalChatCompletion', 'end'];

export const opened = {
  'create({ stream: true })': (c: Client) => c.chat.completions.create({ model: 'mock/echo', messages, stream: true }),
  'stream()': (c: Client) => c.chat.completions.stream({ model: 'mock/echo', messages }),
};

/** `error` and `end` as told, counted by listeners added before the one under test. */
export function watch(target: ChatCompletionStream | ChatCompletionRunner | ChatCompletionStreamingRunner): { errors: unknown[]; ends: number } {
  const seen = { errors: [] as unknown[], ends: 0 };
  (target as ChatCompletionStream).on('error', (error) => void seen.errors.push(error)).on('end', () => void seen.ends++);
  return seen;
}

export const ran: string[] = [];
export const weather: RunnableFunctionTool<{ city: string }> = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    function: ({ city }) => {
      ran.push(city);
      return { city, celsius: 21 };
    },
  },
};
export const completion = (message: object, finish_reason: string, withUsage = true) => ({
  id: 'chatcmpl-r',
  object: 'chat.completion',
  created: 1,
  model: 'mock/echo',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
  ...(withUsage ? { usage } : {}),
});
export const CALLS: Reply = { json: completion({ content: null, tool_calls: [{ id: 'c0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, 'tool_calls') };
export const SAYS: Reply = { json: completion({ content: 'It is 21 °C in Paris.' }, 'stop') };

export type RunnerEventName = keyof ChatCompletionRunnerEvents;
export const RUN_EVENTS: RunnerEventName[] = [
  'connect',
  'chatCompletion',
  'message',
  'functionToolCall',
  'functionToolCallResult',
  'content',
  'finalChatCompletion',
  'finalMessage',
  'finalContent',
  'finalFunctionToolCall',
  'finalFunctionToolCallResult',
  'totalUsage',
  'end',
];
