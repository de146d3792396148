/**
 * `model-inference-sdk models`: the models the key may use, as a table; `models get <slug>`: one
 * model's fields. `--json` prints the response body instead.
 *
 * @module
 */
import { CostEstimateError, estimateCost, type CompletionUsage, type Model } from '../index';
import type { Command } from './command';
import { UsageError } from './command';
import {
  checkSlug,
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  connect,
  outputFor,
  type Output,
} from './connection';
import { inCLIWords } from './explain';
import { defineCommand } from './parse-command';
import { jsonText, printable } from './safe-text';
import { closest, didYouMean } from '../util/suggest';
import { formatTable } from './style';

const help = `Usage: model-inference-sdk models [list] [options]
       model-inference-sdk models get <slug> [options]

Lists the models your key may use (slug, name, context and output limits in
tokens, features, readiness, and prices per token as exact decimals), or shows
every field of one model.

Options:
  --json              print the response body as JSON instead

${CONNECTION_HELP}`;

/** Per-token prices as exact decimal strings. */
interface Prices {
  prompt: string;
  completion: string;
  cacheRead: string;
  currency: string | undefined;
}

/**
 * Per-token prices of a model as exact decimal strings, from the first pricing entry (units such
 * as "usd_per_1m_tokens" converted); `undefined` when the model has none, or none it can read.
 *
 * @example
 * ```ts
 * pricesPerToken({ id: 'mock/echo', pricing: [{ prompt: '0.10', completion: '0.40', input_cache_read: '0.025' }] });
 * // { prompt: '0.1', completion: '0.4', cacheRead: '0.025', currency: undefined }
 * ```
 */
export function pricesPerToken(model: Pick<Model, 'id' | 'pricing'>): Prices | undefined {
  const prices = readPrices(model);
  return prices instanceof CostEstimateError ? undefined : prices;
}

/**
 * The prices, `undefined` when the model has none, or the error that says which one is unusable
 * (`"-1"`, `"NaN"`, `"1e999999999"`, thousands of digits): read by `estimateCost`, so in bounded
 * time whatever the server sent.
 */
function readPrices(model: Pick<Model, 'id' | 'pricing'>): Prices | CostEstimateError | undefined {
  if (model.pricing === undefined) return undefined;
  // One prompt token, one cached prompt token and one completion token: each amount is a unit price.
  const usage = {
    prompt_tokens: 2,
    completion_tokens: 1,
    total_tokens: 3,
    prompt_tokens_details: { cached_tokens: 1 },
  } as CompletionUsage;
  try {
    const cost = estimateCost(usage, model);
    return {
      prompt: cost.prompt,
      completion: cost.completion,
      cacheRead: cost.cacheRead,
      currency: cost.currency,
    };
  } catch (error) {
    // A price that is missing is "no prices"; one that is there but unusable is shown as invalid.
    if (
      error instanceof CostEstimateError &&
      error.raw !== undefined &&
      !(error.field === 'pricing' && Array.isArray(error.raw))
    )
      return error;
    return undefined;
  }
}

function formatPrices(model: Model): string {
  const prices = readPrices(model);
  if (prices === undefined) return '-';
  if (prices instanceof CostEstimateError) return 'invalid';
  return `${prices.prompt} / ${prices.completion} / ${prices.cacheRead}${prices.currency === undefined ? '' : ` ${prices.currency}`}`;
}

const count = (n: number | undefined): string => (typeof n === 'number' ? String(n) : '-');
const ready = (model: Model): string =>
  model.is_ready === undefined ? '-' : model.is_ready ? 'yes' : 'no';

function table(models: readonly Model[], output: Output): string {
  if (models.length === 0) return 'No models are available to this key.\n';
  const rows = models.map((m) => [
    m.id,
    m.name ?? '-',
    count(m.context_length),
    count(m.max_output_length),
    m.supported_features && m.supported_features.length > 0 ? m.supported_features.join(',') : '-',
    ready(m),
    formatPrices(m),
  ]);
  const headers = [
    'slug',
    'name',
    'context',
    'max output',
    'features',
    'ready',
    'prices (prompt / completion / cache read)',
  ];
  const body = formatTable(headers, rows, output.out, {
    right: new Set([2, 3]),
    paint: (column, padded, cell) =>
      column !== 5
        ? padded
        : cell === 'yes'
          ? output.out.green(padded)
          : cell === 'no'
            ? output.out.yellow(padded)
            : padded,
  });
  return `${body}\n${output.out.dim("Prices are per token, in the service's currency.")}\n`;
}

const KNOWN = [
  'id',
  'name',
  'object',
  'owned_by',
  'created',
  'context_length',
  'max_output_length',
  'input_modalities',
  'output_modalities',
  'supported_features',
  'is_ready',
  'pricing',
];

function details(model: Model, output: Output): string {
  const list = (v: readonly string[] | undefined): string =>
    v === undefined ? '-' : v.length === 0 ? '(none)' : v.join(', ');
  const created =
    typeof model.created === 'number' && model.created > 0
      ? `${new Date(model.created * 1000).toISOString()} (${model.created})`
      : String(model.created ?? '-');
  const prices = readPrices(model);
  const rows: [string, string][] = [
    ['slug', model.id],
    ['name', model.name ?? '-'],
    ['owned by', model.owned_by ?? '-'],
    ['created', created],
    ['context', model.context_length === undefined ? '-' : `${model.context_length} tokens`],
    [
      'max output',
      model.max_output_length === undefined ? '-' : `${model.max_output_length} tokens`,
    ],
    ['input', list(model.input_modalities)],
    ['output', list(model.output_modalities)],
    ['features', list(model.supported_features)],
    ['ready', ready(model)],
    [
      'prices',
      prices === undefined
        ? '-'
        : prices instanceof CostEstimateError
          ? `invalid (${prices.field}; --json shows it as sent)`
          : `prompt ${prices.prompt}, completion ${prices.completion}, cache read ${prices.cacheRead} per token` +
            (prices.currency === undefined ? " (the service's currency)" : ` (${prices.currency})`),
    ],
  ];
  for (const [key, value] of Object.entries(model)) {
    if (!KNOWN.includes(key))
      rows.push([key, typeof value === 'string' ? value : JSON.stringify(value)]);
  }
  // The server's text (id, name, owner, its own fields): control characters and line breaks escaped.
  const shown = rows.map(
    ([k, v]) => [printable(k, { oneLine: true }), printable(v, { oneLine: true })] as const,
  );
  const width = Math.max(...shown.map(([k]) => k.length));
  return (
    shown
      .map(
        ([k, v]) =>
          `${output.out.bold(k.padEnd(width))}  ${k === 'ready' && v === 'yes' ? output.out.green(v) : k === 'ready' && v === 'no' ? output.out.yellow(v) : v}`,
      )
      .join('\n') + '\n'
  );
}

/**
 * `model-inference-sdk models [list|get <slug>] [--json] [connection options]`.
 *
 * @example
 * ```ts
 * const code = await modelsCommand.run(['--mock'], { stdout: console.log, stderr: console.error, signal: new AbortController().signal });
 * ```
 */
export const modelsCommand: Command = defineCommand({
  name: 'models',
  summary: 'list the models (a table), or show one: models get <slug>',
  help,
  usesCredentials: true,
  options: { ...CONNECTION_OPTIONS, json: { type: 'boolean', default: false } },
  positionals: true,
  async run({ values, positionals }, io) {
    const [action = 'list', slug, ...extra] = positionals;
    if (action !== 'list' && action !== 'get') {
      throw new UsageError(
        `unknown action '${action}'.${didYouMean(closest(action, ['list', 'get']))} Use 'models', 'models list' or 'models get <slug>'.`,
      );
    }
    if (action === 'list' && slug !== undefined)
      throw new UsageError(`'models list' takes no argument, got '${slug}'.`);
    if (action === 'get' && slug === undefined)
      throw new UsageError("missing <slug>: 'models get <vendor/model>'.");
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0] ?? ''}'.`);
    if (slug !== undefined) checkSlug(slug);

    const output = outputFor(io, values.verbose);
    const { client, endpoint, close } = await connect(values, io, output);
    try {
      if (action === 'get' && slug !== undefined) {
        const model = await client.models.retrieve(slug, { signal: io.signal });
        io.stdout(values.json ? `${jsonText(model, 2)}\n` : details(model, output));
      } else {
        const list = await client.models.list({ signal: io.signal });
        io.stdout(values.json ? `${jsonText(list, 2)}\n` : table(list.data, output));
      }
      return 0;
    } catch (error) {
      throw inCLIWords(error, io.signal, endpoint, slug);
    } finally {
      await close();
    }
  },
});
