/**
 * "Did you mean …?": the closest of a few known words to a mistyped one. The one rule for every
 * suggestion the SDK makes: an option or hook misspelt in code (options/check.ts, hooks/check.ts)
 * and a command, option or action misspelt on the command line (cli/) get the same.
 *
 * @module
 */

/**
 * The candidates closest to `input`: the same word ignoring case and `_`/`-`; else the one
 * candidate it starts (`--temp` → `--temperature`); else those within a small edit distance
 * (a typo, a missing or extra letter, two letters swapped), the closest first. Empty when nothing
 * is close enough to be a likely meaning.
 *
 * @example
 * ```ts
 * closest('jsn', ['json', 'mock', 'verbose']); // ['json']
 * closest('prot', ['port', 'host']);           // ['port']
 * closest('xyz', ['json']);                    // []
 * ```
 */
export function closest(input: string, candidates: readonly string[]): string[] {
  const norm = (word: string): string => word.toLowerCase().replace(/_/g, '-');
  const typed = norm(input);
  if (typed === '') return [];
  const same = candidates.filter((c) => norm(c) === typed);
  if (same.length > 0) return same;
  const extended = candidates.filter((c) => norm(c).startsWith(typed));
  if (extended.length === 1 && typed.length >= 3) return extended;
  // Up to one edit for short words, two from 6 letters on: more would suggest unrelated words.
  const limit = typed.length < 6 ? 1 : 2;
  const scored = candidates
    .map((c) => ({ c, d: editDistance(typed, norm(c)) }))
    .filter(({ d }) => d <= limit);
  const best = Math.min(...scored.map(({ d }) => d));
  return scored.filter(({ d }) => d === best).map(({ c }) => c);
}

/**
 * The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring letters each cost 1 (so `prot` is one edit from `port`).
 */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, at(i - 2, j - 2) + 1);
      d[i * cols + j] = value;
    }
  }
  return at(a.length, b.length);
}

/**
 * ` Did you mean 'x'?` (or `'x' or 'y'`), or '' when there is nothing to suggest. Code names are
 * quoted with backticks by the SDK's own messages (`quote`).
 *
 * @example
 * ```ts
 * `unknown command 'chats'.${didYouMean(['chat'])}`; // "unknown command 'chats'. Did you mean 'chat'?"
 * ```
 */
export function didYouMean(suggestions: readonly string[], quote = "'"): string {
  if (suggestions.length === 0) return '';
  return ` Did you mean ${suggestions.map((s) => `${quote}${s}${quote}`).join(' or ')}?`;
}
