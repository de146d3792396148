// Listing and retrieving models, written for the official `openai` client.
import OpenAI from 'openai';

const client = new OpenAI();

const ids: string[] = [];
for await (const model of client.models.list()) ids.push(model.id);
console.log(ids.join(', '));

const page = await client.models.list();
console.log('first page:', page.data.length);

const model: OpenAI.Model = await client.models.retrieve('mock/echo');
console.log(model.id, model.object, model.owned_by);
