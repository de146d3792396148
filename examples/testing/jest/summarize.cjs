// "Your app", CommonJS flavour: one function that calls the service through the SDK.
/* global module */

/**
 * Summarizes a text in one sentence.
 * @param {import('model-inference-sdk').Client} client
 * @param {string} text
 * @returns {Promise<string>}
 */
async function summarize(client, text) {
  const completion = await client.chat.completions.create({
    model: 'mock/echo',
    messages: [
      { role: 'system', content: 'Summarize the user text in one sentence.' },
      { role: 'user', content: text },
    ],
  });
  const content = completion.choices[0]?.message?.content;
  if (typeof content !== 'string' || content === '') throw new Error('The model returned no summary.');
  return content.trim();
}

module.exports = { summarize };
