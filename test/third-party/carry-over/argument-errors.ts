// A bad argument, written for the official `openai` client: the promise rejects (a `.catch()` or a
// `.then()` chain sees it), nothing throws from the call itself. (openai sends the request and the
// server refuses it; this SDK refuses it before sending. Either way the promise rejects.)
import OpenAI from 'openai';

const client = new OpenAI({ maxRetries: 0 });
const messages = [{ role: 'user' as const, content: 'Hi' }];

let threw = false;
let caught = false;
try {
  await client.chat.completions.create({ model: '', messages }).catch(() => {
    caught = true;
  });
} catch {
  threw = true;
}
console.log('create: caught by .catch()', caught, '; thrown from the call', threw);

const outcome = await client.completions.create({ model: '', prompt: 'Hi' }).then(
  () => 'resolved',
  () => 'rejected',
);
console.log('completions.create:', outcome);

const stream = client.chat.completions.stream({ model: '', messages });
const errors: unknown[] = [];
stream.on('error', (error) => errors.push(error));
console.log(
  'stream: done()',
  await stream.done().then(
    () => 'resolved',
    () => 'rejected',
  ),
  '; error events',
  errors.length,
);

const runner = client.chat.completions.runTools({
  model: '',
  messages,
  tools: [
    {
      type: 'function',
      function: {
        name: 'now',
        description: 'The time.',
        function: () => 'noon',
        parameters: { type: 'object', properties: {} },
      },
    },
  ],
});
console.log(
  'runTools: done()',
  await runner.done().then(
    () => 'resolved',
    () => 'rejected',
  ),
);
