/**
 * `chat.completions.parse({ stream: true })`: a `ChatCompletionStream` that also gives the
 * structured output while it grows (partial JSON, parsed incrementally by partial-json.ts) and,
 * at the end, the parsed completion (validated and typed, as `parse()` without streaming gives it).
 */
import { InferenceError } from '../errors/api';
import type {
  ChatCompletionCreateParams,
  ChatCompletionMessageToolCall,
} from '../generated/types.gen';
import { ChatCompletionStream } from '../stream/chat-stream';
import type { ParsedFunctionToolCall } from './completion';
import { PartialJSON } from './partial-json';
import { StreamParsing, type Masker } from './stream-parser';

/**
 * `T` with every property optional, all the way down: a structured output still being written.
 *
 * @example
 * ```ts
 * import type { DeepPartial } from 'model-inference-sdk';
 *
 * function render(city: DeepPartial<{ name: string; population: number }>): void {
 *   console.log(city.name ?? '…', city.population ?? '…'); // { name: 'Par' } before { name: 'Paris', population: 2102650 }
 * }
 * for await (const partial of stream.parsedStream()) render(partial); // stream: parse({ ..., stream: true })
 * ```
 */
export type DeepPartial<T> = T extends readonly (infer Item)[]
  ? DeepPartial<Item>[]
  : T extends (...args: never[]) => unknown
    ? T
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

/**
 * The stream `chat.completions.parse({ ..., stream: true })` gives: every chunk with `for await`,
 * the structured output as it grows with `parsedStream()`, and the validated, typed result with
 * `finalChatCompletion()`.
 *
 * @example
 * ```ts
 * const stream = await client.chat.completions.parse({
 *   model: 'acme/chat-1',
 *   messages: [{ role: 'user', content: 'Describe Paris.' }],
 *   response_format: zodResponseFormat(City, 'city'),
 *   stream: true,
 * });
 * for await (const partial of stream.parsedStream()) render(partial); // { name: 'Par' }, { name: 'Paris', … }
 * const city = (await stream.finalChatCompletion()).choices[0]?.message.parsed; // City | null
 * ```
 */
export class ParsedChatCompletionStream<
  ParsedT = null,
  ToolCall extends ChatCompletionMessageToolCall = ParsedFunctionToolCall,
> extends ChatCompletionStream<ParsedT, ToolCall> {
  readonly #params: ChatCompletionCreateParams;

  /**
   * `finalChatCompletion()` parses as `parse()` does: `message.parsed` validated and typed,
   * `parsed_arguments` on tool calls; it rejects with the stream's error, `LengthFinishReasonError`,
   * `ContentFilterFinishReasonError` or `OutputParseError`. The events carry the parsed values too.
   * @internal
   */
  constructor(
    stream: ChatCompletionStream<unknown, ChatCompletionMessageToolCall>,
    params: ChatCompletionCreateParams,
    timeout?: number,
    masker?: Masker,
  ) {
    super(() => ChatCompletionStream.chunksOf(stream), stream.controller);
    this.#params = params;
    this.parseWith(new StreamParsing(params, true, timeout, masker));
  }

  /**
   * The structured output of the first choice as it grows: a new, larger partial value each
   * time a chunk changes it (strings and arrays cut where the text stops so far). Partial values
   * are not validated: the schema's verdict comes with `finalChatCompletion()`, which works after
   * this loop. Consumes the stream. Needs a `json_schema` or `json_object` response format.
   *
   * The text is parsed incrementally, once, so the cost grows linearly with the output. Each
   * value is a new object along the path that changed; parts that were complete before keep their
   * identity, and no value is changed after it was yielded. For very large outputs (open arrays
   * or objects of more than about a thousand entries) values are yielded less often, in
   * proportion to how much the text grew, so that copying them stays linear too; the last value
   * always comes.
   *
   * @example
   * ```ts
   * for await (const partial of stream.parsedStream()) console.log(partial.items?.length ?? 0, 'items so far');
   * ```
   */
  async *parsedStream(): AsyncGenerator<DeepPartial<ParsedT>> {
    const type = this.#params.response_format?.type;
    if (type !== 'json_schema' && type !== 'json_object') {
      throw new InferenceError(
        'parsedStream() needs a response_format of type json_schema (e.g. zodResponseFormat(schema, name)) or json_object.',
      );
    }
    const parser = new PartialJSON();
    for await (const chunk of this) {
      for (const choice of chunk.choices) {
        if (choice.index === 0 && choice.delta.content) parser.push(choice.delta.content);
      }
      // Undefined when nothing visible changed (a key, a comma, whitespace), or when throttled.
      const next = parser.snapshot();
      if (next) yield next.value as DeepPartial<ParsedT>;
    }
    const last = parser.snapshot(true);
    if (last) yield last.value as DeepPartial<ParsedT>;
  }
}
