/**
 * Shared by the test/batch/file-*.test.ts files: a batch server and a client of it for the file
 * (`useBatchServer()`), a fresh folder for each test, and the input and output files in it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { Client } from '../../src/index';
import type { BatchOutputLine } from '../../src/batch/index';
import { inputLine, KEY, startBatchServer, type BatchServer } from '../batch/server';

export let server: BatchServer;
export let dir: string;
export let client: Client;
/** Starts `server` and `client` before the file's tests, and gives each test a fresh `dir`. */
export function useBatchServer(): void {
  beforeAll(async () => {
    server = await startBatchServer();
    client = new Client({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'batch-'));
    server.calls.length = 0;
    server.delay = () => 0;
  });
}

export const files = (lines: string[]) => {
  const input = path.join(dir, 'in.jsonl');
  writeFileSync(input, lines.join('\n') + '\n');
  return { input, output: path.join(dir, 'out.jsonl') };
};
export const outputLines = (file: string): BatchOutputLine[] =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as BatchOutputLine);
export const prompts = (n: number) => Array.from({ length: n }, (_, i) => inputLine(`q-${i}`, `prompt ${i}`, i % 4 === 3 ? '/v1/completions' : '/v1/chat/completions'));
