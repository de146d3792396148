/** List the models your key may use, then look one up by its slug. */
import { exampleClient } from './setup';

const { client, done } = await exampleClient();
try {
  const { data } = await client.models.list();
  for (const model of data) {
    console.log(`${model.id.padEnd(24)} context ${model.context_length ?? '?'}  ready ${model.is_ready ?? '?'}`);
  }
  const first = data[0];
  if (first) {
    const model = await client.models.retrieve(first.id); // 'vendor/model': the / stays a path separator
    console.log(`\n${model.id}: ${model.name ?? ''}, features ${(model.supported_features ?? []).join(', ') || 'none'}`);
  }
} finally {
  await done();
}
