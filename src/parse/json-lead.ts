/**
 * What comes before the JSON of a model's structured output, skipped as `jsonText()` (completion.ts)
 * skips it, delta by delta: leading whitespace, one `<think>…</think>` block (vLLM without a
 * reasoning parser, Together), and a Markdown code fence.
 */

const enum Lead {
  Start,
  Think,
  Fence,
  JSON,
}

export class JSONLead {
  #state = Lead.Start;
  #pre = '';
  #searched = 0;

  /** Add the next piece; the JSON text so far once it has started (then the lead is done), else `undefined`. */
  push(text: string): string | undefined {
    this.#pre += text;
    for (;;) {
      if (this.#state === Lead.Think) {
        // Search only what is new (with room for a tag split across deltas).
        const end = this.#pre.indexOf('</think>', Math.max(0, this.#searched - 8));
        if (end < 0) {
          this.#searched = this.#pre.length;
          return undefined;
        }
        this.#pre = this.#pre.slice(end + '</think>'.length);
        this.#state = Lead.Fence;
        continue;
      }
      const trimmed = this.#pre.trimStart();
      if (trimmed === '') return undefined;
      if (this.#state === Lead.Start) {
        if (trimmed.startsWith('<think>')) {
          this.#pre = trimmed.slice('<think>'.length);
          this.#searched = 0;
          this.#state = Lead.Think;
          continue;
        }
        if ('<think>'.startsWith(trimmed)) return undefined;
        this.#state = Lead.Fence;
      }
      // Lead.Fence
      if ('```'.startsWith(trimmed)) return undefined;
      let json = trimmed;
      if (trimmed.startsWith('```')) {
        if (!/[\r\n]/.test(trimmed)) return undefined; // the fence's first line is not complete
        const fence = /^```[a-zA-Z]*[ \t]*\r?\n/.exec(trimmed);
        if (fence) json = trimmed.slice(fence[0].length);
      }
      this.#state = Lead.JSON;
      this.#pre = '';
      return json;
    }
  }
}
