/**
 * Who may call, and where a request goes: bearer auth with per-key model lists, then the built-in
 * routes (`/models`, `/models/{slug}`, `/chat/completions`, `/completions`), with the service's
 * 404 and 405 answers for anything else.
 *
 * @module
 */
import type { ModelObject } from '../fixtures';
import { chatCompletions } from './chat';
import { legacyCompletions } from './completions';
import { errorResponse, jsonResponse, respondWith } from './outcome';
import type { Outcome } from './outcome';
import { decodeSegments } from './paths';
import type { ReadBody, Shaping, State } from './state';
import { notAvailable } from './turn';

/**
 * The models the request's key may use, or the 401 for a missing or unknown key. The spec says
 * every endpoint needs the bearer credential; it gives no status codes, and 401 is the natural one.
 */
export function authenticate(
  state: State,
  request: Request,
): { visible: ModelObject[] } | { denied: Outcome } {
  const key = bearerToken(request.headers.get('authorization'));
  const access = key === undefined ? undefined : state.keys.get(key);
  if (access === undefined) {
    const message =
      key === undefined
        ? 'You did not provide an API key. Send it in the header `Authorization: Bearer <API_KEY>`.'
        : 'Incorrect API key provided.';
    return { denied: respondWith(errorResponse(401, message, 'authentication_error')) };
  }
  // Per-key availability: a model the key may not use is indistinguishable from an unknown one.
  return { visible: state.models.filter((m) => access === 'all' || access.has(m.id)) };
}

/** The service's own behaviour, shaped by `reply` / `fault` when a scripted reply asks. */
export function builtIn(
  state: State,
  request: Request,
  signal: AbortSignal,
  path: string,
  body: ReadBody,
  visible: readonly ModelObject[],
  shaping: Shaping,
): Outcome {
  const method = request.method;
  const wrongMethod = (wanted: 'GET' | 'POST'): Outcome | undefined => {
    if (method === wanted) return undefined;
    const response = errorResponse(
      405,
      `Method ${method} is not allowed on /v1${path}; use ${wanted}.`,
      'invalid_request_error',
    );
    response.headers.set('allow', `${wanted}, OPTIONS`);
    return respondWith(response);
  };

  if (path === '/models') {
    return wrongMethod('GET') ?? respondWith(jsonResponse(200, { object: 'list', data: visible }));
  }
  if (path.startsWith('/models/')) {
    const wrong = wrongMethod('GET');
    if (wrong !== undefined) return wrong;
    const slug = decodeSegments(path.slice('/models/'.length));
    const model = visible.find((m) => m.id === slug);
    return respondWith(
      model === undefined
        ? errorResponse(404, notAvailable(slug), 'invalid_request_error')
        : jsonResponse(200, model),
    );
  }
  if (path === '/chat/completions') {
    return wrongMethod('POST') ?? chatCompletions(state, body, visible, shaping, signal);
  }
  if (path === '/completions') {
    return wrongMethod('POST') ?? legacyCompletions(state, body, visible, shaping, signal);
  }
  // A base URL copied with its endpoint (`…/v1/chat/completions`) doubles it: say so.
  const endpoint =
    /^\/(chat\/completions|completions|models)\/(chat\/completions|completions|models)$/.test(path)
      ? ` The base URL ends in /v1, not in an endpoint: use ${new URL(request.url).origin}${state.basePath} as the base URL.`
      : '';
  return respondWith(
    errorResponse(
      404,
      `Unknown request URL: ${method} /v1${path}.${endpoint}`,
      'invalid_request_error',
    ),
  );
}

function bearerToken(header: string | null): string | undefined {
  const match = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
