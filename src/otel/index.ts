/**
 * OpenTelemetry for the client, as hooks: `new Client({ hooks: [openTelemetry()] })` traces and
 * measures every call by the GenAI semantic conventions (spans named `chat acme/chat-1`, token
 * usage, duration and time-to-first-chunk metrics). Built on the public entry only (it imports
 * `model-inference-sdk` as a user's code does); `@opentelemetry/api` is an optional peer dependency that
 * this entry alone needs. See docs/opentelemetry.md.
 *
 * @example
 * ```ts
 * import { Client } from 'model-inference-sdk';
 * import { openTelemetry } from 'model-inference-sdk/otel';
 *
 * const client = new Client({ hooks: [openTelemetry({ captureContent: false })] });
 * ```
 *
 * @packageDocumentation
 */

export { openTelemetry } from './telemetry';
export type { OpenTelemetryOptions } from './telemetry';
