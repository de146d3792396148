/**
 * Checks that a secret (the API key) appears nowhere a user could see it: an error's message,
 * stack, fields and cause chain, `util.inspect`, `JSON.stringify`, or a log line.
 */
import { inspect } from 'node:util';
import { expect } from 'vitest';
import type { Logger } from '../../src/index';

/** A logger that keeps every line, each argument rendered as `console` would (`util.inspect`). */
export function spyLogger(): Logger & { lines: { level: string; text: string }[]; text: () => string } {
  const lines: { level: string; text: string }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push({ level, text: args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 20 }))).join(' ') });
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), lines, text: () => lines.map((l) => l.text).join('\n') };
}

/** Every way of looking at `thing` that a user might print. */
export function renderings(thing: unknown): string[] {
  const texts = [inspect(thing, { depth: Infinity, showHidden: true, getters: true })];
  try {
    texts.push(String(thing));
  } catch {
    // an object without toString
  }
  try {
    texts.push(JSON.stringify(thing) ?? '');
  } catch {
    // circular: inspect covers it
  }
  // The whole cause chain, with each link's own message and stack.
  for (let link: unknown = thing, depth = 0; link instanceof Error && depth < 50; link = link.cause, depth++) {
    texts.push(link.message, link.stack ?? '');
    for (const key of Object.keys(link)) {
      try {
        texts.push(inspect((link as unknown as Record<string, unknown>)[key], { depth: Infinity, showHidden: true }));
      } catch {
        // a getter that throws
      }
    }
  }
  return texts;
}

export function expectNoSecret(secret: string, ...things: unknown[]): void {
  for (const thing of things) {
    for (const text of renderings(thing)) expect(text).not.toContain(secret);
  }
}
