// app/api/inference/v1/[...path]/route.ts: the route of a Next.js app (App Router). Every path
// under /api/inference/v1 reaches it; the browser's Client uses `baseURL: '/api/inference/v1'`.
// INFERENCE_API_KEY and INFERENCE_BASE_URL stay in the server's environment (.env.local).
import { createProxy } from 'model-inference-sdk/proxy';

const handler = createProxy({
  models: ['acme/chat-1'],
  system: 'You are the help desk of Acme. Answer in at most three sentences.',
  // Your session check: a user id, or null for 401. Here, a header set by the app's middleware.
  identify: (request) => request.headers.get('x-user-id'),
  maxTokens: 512,
  rateLimit: { requests: 20, tokens: 20_000, windowMs: 60_000 },
  budget: { cost: '0.50', windowMs: 24 * 60 * 60 * 1000 },
});

// Next.js calls these with (request: NextRequest, context); a NextRequest is a Request.
export const GET = handler;
export const POST = handler;

// Streams must not be cached or pre-rendered.
export const dynamic = 'force-dynamic';

// The signature Next.js checks route handlers against, without Next.js installed here.
type RouteHandler = (request: Request, context: { params: Promise<{ path: string[] }> }) => Promise<Response>;
export type Checked = [typeof GET, typeof POST] extends [RouteHandler, RouteHandler] ? true : never;
const checked: Checked = true;
void checked;
