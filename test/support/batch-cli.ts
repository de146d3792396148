/**
 * Shared by the test/batch/cli-*.test.ts files: a batch server for the file and a fresh folder for
 * each test (`useBatchCliServer()`), the environment that points the CLI at the server, an input
 * file writer, and the custom_ids of an output file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { killLeftovers } from '../cli-support';
import { KEY, startBatchServer, type BatchServer } from '../batch/server';

export let server: BatchServer;
export let dir: string;
/** Starts `server` before the file's tests; gives each test a fresh `dir`, and kills what it left. */
export function useBatchCliServer(): void {
  beforeAll(async () => {
    server = await startBatchServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'batch-cli-'));
    server.calls.length = 0;
    server.delay = () => 0;
    server.run = 0;
  });
  afterEach(() => {
    killLeftovers();
    rmSync(dir, { recursive: true, force: true });
  });
}

export const env = () => ({ INFERENCE_API_KEY: KEY, INFERENCE_BASE_URL: server.url });
export const write = (name: string, lines: string[]) => {
  const file = path.join(dir, name);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
};
export const ids = (file: string): string[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { custom_id: string }).custom_id)
    : [];
/** The custom_ids of the whole lines of an output file (a torn last line left out, as the next run reads it). */
export const wholeIds = (file: string): string[] => {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => {
      try {
        return [(JSON.parse(l) as { custom_id: string }).custom_id];
      } catch {
        return [];
      }
    });
};

