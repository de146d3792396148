// @ts-check
/**
 * The benchmark's server: plain node:http on 127.0.0.1, run in its own process (bench/run.mjs
 * forks it and reads the port from its first IPC message). `POST /v1/chat/completions` answers
 * with a fixed completion, or with `stream: true` an event stream of `max_tokens` content
 * chunks in the chat-completions wire format (the shape `inference-sdk/testing` sends). Bodies
 * are built once per length and written in one piece, so the server costs little and the
 * client's reads are as large as the loopback delivers: what is measured is the client's
 * work per chunk, not per read.
 */
import { createServer } from 'node:http';
import { MODEL, REPLY, chunkText } from './workload.mjs';

const CREATED = 1_700_000_000;
const ID = 'chatcmpl-bench';

/** @type {Map<number, Buffer>} */
const streams = new Map();

/** @param {number} n */
function streamBody(n) {
  let body = streams.get(n);
  if (body) return body;
  /** @param {object} delta @param {string | null} finish */
  // A realistic chunk: what OpenAI and most servers send on every event, nulls included.
  const event = (delta, finish) =>
    `data: ${JSON.stringify({ id: ID, object: 'chat.completion.chunk', created: CREATED, model: MODEL, system_fingerprint: null, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const parts = [event({ role: 'assistant', content: '' }, null)];
  for (let i = 0; i < n; i++) parts.push(event({ content: chunkText(i) }, null));
  parts.push(event({}, 'stop'), 'data: [DONE]\n\n');
  body = Buffer.from(parts.join(''));
  streams.set(n, body);
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

const server = createServer((req, res) => {
  /** @type {Buffer[]} */
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(Buffer.concat(parts).toString());
    if (body.stream === true) {
      const data = streamBody(Number(body.max_tokens));
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
