// @ts-check
/**
 * The benchmark's server: plain node:http on 127.0.0.1, run in its own process (bench/run.mjs
 * forks it and reads the port from its first IPC message). `POST /v1/chat/completions` answers
 * with a fixed completion, or with `stream: true` an event stream of `max_tokens` content
 * chunks in the chat-completions wire format (the shape `model-inference-sdk/testing` sends); with
 * `tools`, a flood of tool-call argument fragments instead, and with `response_format`, a JSON
 * structured output of `max_tokens` array items (the growth metric's floods). Bodies
 * are built once per length and written in one piece, so the server costs little and the
 * client's reads are as large as the loopback delivers: what is measured is the client's
 * work per chunk, not per read.
 */
import { createServer } from 'node:http';
import { MODEL, REPLY, STORM, chunkText, jsonFragments, toolCallFragments } from './workload.mjs';

const CREATED = 1_700_000_000;
const ID = 'chatcmpl-bench';

/** @type {Map<string, Buffer>} */
const streams = new Map();

/** @param {object} delta @param {string | null} finish */
// A realistic chunk: what OpenAI and most servers send on every event, nulls included.
const event = (delta, finish) =>
  `data: ${JSON.stringify({ id: ID, object: 'chat.completion.chunk', created: CREATED, model: MODEL, system_fingerprint: null, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

/** @type {{ text: (n: number) => object[], tools: (n: number) => object[], json: (n: number) => object[] }} */
const DELTAS = {
  /** `n` content chunks of text. */
  text: (n) => Array.from({ length: n }, (_, i) => ({ content: chunkText(i) })),
  /** `n` tool-call argument fragments, a new call every CALL_SIZE (the id and name on its first). */
  tools: (n) =>
    toolCallFragments(n).flatMap((fragments, k) =>
      fragments.map((fragment, j) => ({
        tool_calls: [j === 0 ? { index: k, id: `call_${k}`, type: 'function', function: { name: 'f', arguments: fragment } } : { index: k, function: { arguments: fragment } }],
      })),
    ),
  /** A JSON structured output of `n` array items, one item per chunk. */
  json: (n) => jsonFragments(n).map((content) => ({ content })),
};

/** @param {'text' | 'tools' | 'json'} kind @param {number} n */
function streamBody(kind, n) {
  const key = `${kind}:${n}`;
  let body = streams.get(key);
  if (body) return body;
  const finish = kind === 'tools' ? 'tool_calls' : 'stop';
  const parts = [event({ role: 'assistant', content: '' }, null)];
  for (const delta of DELTAS[kind](n)) parts.push(event(delta, null));
  parts.push(event({}, finish), 'data: [DONE]\n\n');
  body = Buffer.from(parts.join(''));
  streams.set(key, body);
  return body;
}

const completion = Buffer.from(
  JSON.stringify({
    id: ID,
    object: 'chat.completion',
    created: CREATED,
    model: MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content: REPLY }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 2, completion_tokens: 16, total_tokens: 18 },
  }),
);

/**
 * The storm's token buckets, one per run (`/limited/<run>/v1/…`, so that each measurement starts
 * with a full bucket): every response carries OpenAI's rate-limit headers (the reset: when the
 * bucket is full again), a request without a token gets a 429 with `retry-after-ms` (when the next
 * token comes). `GET /limited/<run>/stats` says what the server saw.
 * @type {Map<string, { tokens: number, last: number, requests: number, limited: number }>}
 */
const buckets = new Map();

/** @param {string} run @param {import('node:http').ServerResponse} res @param {boolean} stats */
function limited(run, res, stats) {
  let bucket = buckets.get(run);
  if (!bucket) buckets.set(run, (bucket = { tokens: STORM.burst, last: performance.now(), requests: 0, limited: 0 }));
  if (stats) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests: bucket.requests, limited: bucket.limited }));
    return;
  }
  const now = performance.now();
  bucket.tokens = Math.min(STORM.burst, bucket.tokens + ((now - bucket.last) * STORM.rate) / 1000);
  bucket.last = now;
  bucket.requests++;
  const ok = bucket.tokens >= 1;
  if (ok) bucket.tokens -= 1;
  const headers = {
    'content-type': 'application/json',
    'x-ratelimit-limit-requests': String(STORM.burst),
    'x-ratelimit-remaining-requests': String(Math.floor(bucket.tokens)),
    'x-ratelimit-reset-requests': `${Math.ceil(((STORM.burst - bucket.tokens) * 1000) / STORM.rate)}ms`,
  };
  if (ok) {
    res.writeHead(200, { ...headers, 'content-length': completion.length }).end(completion);
    return;
  }
  bucket.limited++;
  const wait = Math.max(1, Math.ceil(((1 - bucket.tokens) * 1000) / STORM.rate));
  res.writeHead(429, { ...headers, 'retry-after-ms': String(wait), 'retry-after': String(Math.ceil(wait / 1000)) });
  res.end('{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}');
}

const server = createServer((req, res) => {
  /** @type {Buffer[]} */
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    const storm = /^\/limited\/([\w-]+)\/(?:v1\/chat\/completions|stats)$/.exec(req.url ?? '');
    if (storm) return limited(storm[1] ?? '', res, req.method === 'GET');
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(Buffer.concat(parts).toString());
    if (body.stream === true) {
      const kind = body.tools ? 'tools' : body.response_format ? 'json' : 'text';
      const data = streamBody(kind, Number(body.max_tokens));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }); // chunked, as servers stream
      res.end(data);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length });
      res.end(completion);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  process.send?.({ port: address.port });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
process.on('SIGTERM', () => process.exit(0));
