/** Shared by the test/tools-*.test.ts files: the request, and a weather tool that records its calls. */
import * as z from 'zod';
import { type ChatCompletionMessageParam } from '../../src/index';
import { zodFunction } from '../../src/helpers/zod';

export const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris and Oslo?' }];

// --- our side -----------------------------------------------------------------------------

export const City = z.object({ city: z.string(), unit: z.enum(['c', 'f']).optional() });

/** A weather tool that records its calls. */
export function weatherTool(log: unknown[] = []) {
  return zodFunction({
    name: 'get_weather',
    description: 'Current weather in a city',
    parameters: City,
    function: async (args) => {
      log.push(args);
      return { city: args.city, celsius: args.city === 'Oslo' ? -2 : 21 };
    },
  });
}
