/**
 * The only reader of environment variables.
 *
 * Runtimes differ: Node and Bun have `process.env`; Deno has it too but throws `NotCapable` when
 * the script lacks `--allow-env`; Workers, edge runtimes and browsers have no `process` at all.
 * A missing or unreadable variable is `undefined`, never an exception.
 */
export function readEnv(name: string): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
      ?.env;
    const value = env?.[name]?.trim();
    return value ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True where the code runs in a web page: a `window` with a `document`.
 * Deno 2, Bun, Workers and edge runtimes have no `document`, so they are not browsers here.
 */
export function isBrowser(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window !== 'undefined' && typeof g.document !== 'undefined';
}
