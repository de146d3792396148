/**
 * The argument and help preamble every command shares: `-h, --help`, then the command's options
 * and arguments checked, with mistakes explained in the CLI's words ("unknown option '--jsn'.
 * Did you mean '--json'?") as {@link UsageError}s, which the dispatcher prints with the synopsis
 * and exit code 2. node:util's `parseArgs` splits the words; its own error texts never show.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import type { Command, CommandIO } from './command';
import { UsageError } from './command';
import { closest, didYouMean } from '../util/suggest';

/** One option of a command. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** A one-letter alias: `m` for `-m`. */
  short?: string;
  /** May be given several times; the value is then an array. */
  multiple?: boolean;
  default?: string | boolean | readonly string[];
  /** What the value is, for messages: `slug` in `-m, --model <slug>`. Default `value`. */
  valueName?: string;
}

/** A command's options by long name (`'max-tokens'` for `--max-tokens`). */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type One<S> = S extends { type: 'string' } ? string : boolean;
type Many<S> = S extends { multiple: true } ? One<S>[] : One<S>;

/** The parsed values: with a default, always there; otherwise possibly `undefined`. */
export type OptionValues<O extends OptionSpecs> = {
  -readonly [K in keyof O]: O[K] extends { default: unknown } ? Many<O[K]> : Many<O[K]> | undefined;
};

/** What {@link parseCommand} found. */
export interface ParsedCommand<O extends OptionSpecs> {
  values: OptionValues<O>;
  positionals: string[];
  /** `-h` or `--help` was given (anywhere before `--`): print the help, check nothing else. */
  help: boolean;
}

/** What a command declares: its words, its options, and what it does with them. */
export interface CommandSpec<O extends OptionSpecs> {
  name: string;
  summary: string;
  help: string;
  options: O;
  /** Whether it takes arguments besides options (a prompt, `get <slug>`); default false. */
  positionals?: boolean;
  usesCredentials?: boolean;
  run(parsed: ParsedCommand<O>, io: CommandIO): Promise<number>;
}

const HELP: OptionSpec = { type: 'boolean', short: 'h' };

/**
 * Splits a command's arguments into option values and positionals.
 *
 * @throws UsageError for an unknown option (with a suggestion when one is close), a missing or
 * unexpected value, or an argument the command does not take.
 * @example
 * ```ts
 * const { values, positionals } = parseCommand(['--jsn'], { name: 'models', options: { json: { type: 'boolean', default: false } } });
 * // UsageError: unknown option '--jsn'. Did you mean '--json'?
 * ```
 */
export function parseCommand<O extends OptionSpecs>(
  args: readonly string[],
  spec: Pick<CommandSpec<O>, 'name' | 'options' | 'positionals'>,
): ParsedCommand<O> {
  const options: OptionSpecs = { ...spec.options, help: HELP };
  const config = Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      {
        type: o.type,
        ...(o.short === undefined ? {} : { short: o.short }),
        ...(o.multiple ? { multiple: true } : {}),
      },
    ]),
  );
  // Not strict: parseArgs then never throws, and every word comes back as a token to check here.
  const { tokens } = parseArgs({
    args: [...args],
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });

  const values: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(spec.options))
    if (o.default !== undefined)
      values[name] = Array.isArray(o.default) ? [...o.default] : o.default;
  const positionals: string[] = [];
  const given = new Set<string>();
  // Help wins over any mistake, even as the missing value of an option (`-m --help`).
  const wantsHelp = tokens.some(
    (t) =>
      t.kind === 'option' &&
      (t.name === 'help' ||
        (t.inlineValue === false && (t.value === '--help' || t.value === '-h'))),
  );
  if (wantsHelp) return { values: values as OptionValues<O>, positionals, help: true };

  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      if (spec.positionals !== true)
        throw new UsageError(
          `unexpected argument '${token.value}': '${spec.name}' takes options only.`,
        );
      positionals.push(token.value);
      continue;
    }
    const option = options[token.name];
    if (option === undefined)
      throw new UsageError(
        unknownOption(token.rawName, args[token.index] ?? token.rawName, options),
      );
    const label = labelOf(token.name, option);
    if (option.type === 'boolean') {
      if (token.value !== undefined)
        throw new UsageError(`${label} takes no value, got '${args[token.index] ?? ''}'.`);
      values[token.name] = true;
      continue;
    }
    const value = token.value;
    if (value === undefined) throw new UsageError(`${label} needs a value.`);
    // `-m --json`: the next word is an option, not the value the user forgot (negative numbers are values).
    if (!token.inlineValue && value.startsWith('-') && value !== '-' && !/^-\d/.test(value)) {
      throw new UsageError(
        `${label} needs a value, got the option '${value}'. To pass a value that starts with '-', write --${token.name}=${value}.`,
      );
    }
    if (option.multiple) {
      // The first value given replaces the default; later ones add to it.
      const list = given.has(token.name) ? (values[token.name] as string[]) : [];
      values[token.name] = [...list, value];
    } else {
      values[token.name] = value;
    }
    given.add(token.name);
  }
  return { values: values as OptionValues<O>, positionals, help: false };
}

/**
 * A {@link Command} from a spec: `run(args, io)` parses the arguments with {@link parseCommand},
 * prints the help for `-h`/`--help`, and hands the parsed values to the spec's `run`.
 *
 * @example
 * ```ts
 * export const helloCommand = defineCommand({
 *   name: 'hello',
 *   summary: 'say hello',
 *   help: 'Usage: model-inference-sdk hello [--loud]\n',
 *   options: { loud: { type: 'boolean', default: false } },
 *   async run({ values }, io) {
 *     io.stdout(values.loud ? 'HELLO\n' : 'hello\n');
 *     return 0;
 *   },
 * });
 * ```
 */
export function defineCommand<const O extends OptionSpecs>(spec: CommandSpec<O>): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    help: spec.help,
    ...(spec.usesCredentials === undefined ? {} : { usesCredentials: spec.usesCredentials }),
    async run(args, io) {
      const parsed = parseCommand(args, spec);
      if (parsed.help) {
        io.stdout(spec.help);
        return 0;
      }
      return spec.run(parsed, io);
    },
  };
}

/** `-m, --model <slug>` or `--json`, as the help writes it. */
function labelOf(name: string, option: OptionSpec): string {
  const value = option.type === 'string' ? ` <${option.valueName ?? 'value'}>` : '';
  return `'${option.short === undefined ? '' : `-${option.short}, `}--${name}${value}'`;
}

/** "unknown option '--jsn'. Did you mean '--json'?", suggesting by long name and by short letter. */
function unknownOption(rawName: string, word: string, options: OptionSpecs): string {
  const longs = Object.keys(options);
  if (rawName.startsWith('--')) {
    const suggestions = closest(rawName.slice(2), longs).map((name) => `--${name}`);
    if (suggestions.length === 0 && rawName === '--version')
      return "unknown option '--version': the version is 'model-inference-sdk --version'.";
    return `unknown option '${rawName}'.${didYouMean(suggestions)}`;
  }
  if (/^-[^-]{2,}/.test(word)) {
    // `-json`: a long name after one dash (parseArgs read it as the letters -j -s -o -n).
    const typed = word.slice(1).split('=')[0] ?? '';
    const suggestions = closest(typed, longs).map((name) => `--${name}`);
    if (suggestions.length > 0) return `unknown option '-${typed}'.${didYouMean(suggestions)}`;
  }
  const letter = rawName.slice(1);
  const suggestions = Object.entries(options)
    .filter(
      ([name, o]) =>
        o.short?.toLowerCase() === letter.toLowerCase() ||
        (o.short === undefined && name === letter),
    )
    .map(([name, o]) => (o.short === undefined ? `--${name}` : `-${o.short}`));
  return `unknown option '${rawName}'.${didYouMean(suggestions)}`;
}

/**
 * An integer flag in a range.
 *
 * @throws UsageError otherwise.
 * @example
 * ```ts
 * const maxTokens = integerFlag('--max-tokens', values['max-tokens'], 1, 1_000_000);
 * ```
 */
export function integerFlag(
  flag: string,
  raw: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (raw === undefined) return undefined;
  // Digits only: `Number()` also takes ' 4', '1e3', '0x10' and '+4'.
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got '${raw}'.`);
  }
  return value;
}

/**
 * A number flag in a range.
 *
 * @throws UsageError otherwise.
 * @example
 * ```ts
 * const temperature = numberFlag('--temperature', values.temperature, 0, 2);
 * ```
 */
export function numberFlag(
  flag: string,
  raw: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (raw === undefined) return undefined;
  // A plain decimal (0.7, .7, 1): `Number()` also takes ' 1', '1e0', '0x1' and 'Infinity'.
  const value = /^-?(\d+\.?\d*|\.\d+)$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    throw new UsageError(`${flag} must be a number from ${min} to ${max}, got '${raw}'.`);
  }
  return value;
}

/**
 * Keys that are no data (JavaScript gives them a meaning of their own), with why: the body
 * `--param` adds to could lose its `stream` or be replaced whole as it is sent.
 */
const UNSAFE_KEYS: ReadonlyMap<string, string> = new Map([
  ['__proto__', "'__proto__' would set the body's prototype, not a field"],
  ['constructor', "'constructor' names an object's class, not a field"],
  ['prototype', "'prototype' names a class's prototype, not a field"],
  ['toJSON', "'toJSON' would replace the body when it is serialized"],
]);

/** The first unsafe key in a JSON value, at any depth, and where it is (`provider.order[0].__proto__`). */
function unsafeKey(value: unknown, at: string): { key: string; at: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unsafeKey(item, `${at}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (UNSAFE_KEYS.has(key)) return { key, at: `${at}.${key}` };
    const found = unsafeKey(item, `${at}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * `--param name=value` flags (repeatable) as a request's `extraBody`: a server's own parameter.
 * The value is read as JSON when it is JSON (`top_k=40`, `provider={"sort":"price"}`, `x=true`),
 * else taken as a string (`grammar=root ::= "a"`). `reserved` names the fields the command sets
 * itself, each with what to use instead. `__proto__`, `constructor`, `prototype` and `toJSON`
 * are refused as names and as keys anywhere in a value: none is data.
 *
 * @throws UsageError for a malformed, repeated, reserved or unsafe parameter.
 * @example
 * ```ts
 * paramFlags(['top_k=40', 'provider={"sort":"price"}'], { stream: 'chat always streams' });
 * // { top_k: 40, provider: { sort: 'price' } }
 * paramFlags(['__proto__={"stream":false}'], {}); // UsageError: --param __proto__: '__proto__' would set …
 * ```
 */
export function paramFlags(
  raw: readonly string[] | undefined,
  reserved: Readonly<Record<string, string>>,
): Record<string, unknown> | undefined {
  if (raw === undefined || raw.length === 0) return undefined;
  const params: Record<string, unknown> = {};
  for (const item of raw) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? '' : item.slice(0, eq).trim();
    if (name === '')
      throw new UsageError(`--param must be name=value (e.g. --param top_k=40), got '${item}'.`);
    if (Object.hasOwn(params, name)) throw new UsageError(`--param ${name} is given twice.`);
    if (Object.hasOwn(reserved, name)) throw new UsageError(`--param ${name}: ${reserved[name]!}.`);
    if (UNSAFE_KEYS.has(name))
      throw new UsageError(
        `--param ${name}: ${UNSAFE_KEYS.get(name)!}; it is not a parameter a server takes.`,
      );
    const text = item.slice(eq + 1);
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON: the text itself.
    }
    const unsafe = unsafeKey(value, name);
    if (unsafe !== undefined) {
      throw new UsageError(
        `--param ${name}: its value has the key '${unsafe.key}' (at ${unsafe.at}): ${UNSAFE_KEYS.get(unsafe.key)!}; leave it out.`,
      );
    }
    params[name] = value;
  }
  return params;
}
