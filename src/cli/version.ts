/**
 * The version of the installed package, for `model-inference-sdk --version`.
 *
 * @module
 */
import { readFileSync } from 'node:fs';

/**
 * The `version` of the nearest package.json named `model-inference-sdk` above this file: the package's
 * own, whether this runs from the build (dist/cli.js) or the source (src/cli/version.ts). Read
 * when asked, not at startup.
 *
 * @example
 * ```ts
 * packageVersion(); // '0.1.0'
 * ```
 */
export function packageVersion(): string {
  for (let dir = new URL('./', import.meta.url); ;) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'model-inference-sdk' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here (or not readable): look further up.
    }
    const parent = new URL('../', dir);
    if (parent.href === dir.href) return 'unknown';
    dir = parent;
  }
}
