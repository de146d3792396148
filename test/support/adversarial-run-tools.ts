/**
 * Shared by the test/adversarial/run-tools-*.test.ts files: the model's side, a loopback server that
 * answers each round as the test says (`useToolServer()` starts it for the file), and the run.
 */
import { afterAll, beforeAll } from 'vitest';
import type { RunnableToolFunction } from '../../src/index';
import { clientOf, completion, json, serve, USER, type TestServer } from '../adversarial/support';

export let server: TestServer;
/** Starts `server` (every round answered "done") before the file's tests and closes it after them. */
export function useToolServer(): void {
  beforeAll(async () => {
    server = await serve((_req, res) => json(res, completion({ content: 'done' })));
  });
  afterAll(() => server.close());
}

/** Round i gets rounds[i]; later rounds the final answer "done". Returns the bodies sent, parsed. */
export function script(...rounds: Record<string, unknown>[]): { bodies: () => Record<string, unknown>[] } {
  const start = server.requests.length;
  server.handle((_req, res) => {
    const round = server.requests.length - start - 1;
    json(res, rounds[round] ?? completion({ content: 'done' }));
  });
  return { bodies: () => server.requests.slice(start).map((r) => JSON.parse(r.body) as Record<string, unknown>) };
}

type Message = { role: string; content?: unknown; tool_call_id?: string };
export const toolMessages = (body: Record<string, unknown>) => (body['messages'] as Message[]).filter((m) => m.role === 'tool');

export function plainTool(name: string, fn: (args: unknown, ctx: { signal: AbortSignal }) => unknown): RunnableToolFunction<object> {
  return { type: 'function', function: { name, function: fn as never, parameters: { type: 'object', properties: {} } } } as unknown as RunnableToolFunction<object>;
}

export const run = (tools: unknown[], options: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  clientOf(server.baseURL).chat.completions.runTools({ model: 'acme/chat-1', messages: USER, tools: tools as never, ...extra }, options as never);
