/**
 * Runs once before the test files (vitest `globalSetup`): what the whole run should hear once, not
 * once per file. The corpus suites skip when the captures are not beside the project; say so here,
 * in one line that explains it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const missing = ['corpus', 'corpus2'].filter((name) => !existsSync(fileURLToPath(new URL(`../../../shared/${name}/MANIFEST.json`, import.meta.url))));
  if (missing.length > 0) {
    console.log(`Skipping the corpus suites: ../shared/${missing.join(' and ../shared/')} (recorded responses of real servers, kept beside the repository, not in it) not found.`);
  }
}
