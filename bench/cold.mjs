// @ts-check
/**
 * Cold start: `node bench/cold.mjs <client>` imports the client and constructs it, nothing more;
 * bench/run.mjs times the whole process against a bare `node -e 0`. The floor needs no import
 * (`fetch` is global and is not touched until a request).
 */
const [name = ''] = process.argv.slice(2);
const options = { apiKey: 'bench-key', baseURL: 'http://127.0.0.1:9/v1' };
if (name === 'openai') {
  const { default: OpenAI } = await import('openai');
  new OpenAI(options);
} else if (name === 'sdk') {
  const { Client } = await import(process.env.BENCH_SDK ?? '../dist/index.js');
  new Client(options);
} else if (name !== 'floor') {
  throw new Error(`unknown client ${name}`);
}
