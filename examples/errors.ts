/** Errors are typed: catch the class you can handle, let the rest through. */
import { APIConnectionError, NotFoundError, RateLimitError } from 'model-inference-sdk';
import { exampleClient } from './setup';

const { client, done } = await exampleClient();
try {
  await client.models.retrieve('acme/does-not-exist');
} catch (error) {
  if (error instanceof NotFoundError) {
    console.log(`not found (${error.status}, type ${error.type}, request ${error.requestId}): ${error.message}`);
  } else if (error instanceof RateLimitError) {
    console.log('rate limited; retry after', error.headers?.get('retry-after'));
  } else if (error instanceof APIConnectionError) {
    console.log('network problem:', error.cause);
  } else {
    throw error;
  }
} finally {
  await done();
}
