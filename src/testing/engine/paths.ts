/**
 * Paths: where the API lives on the transport's origin, and how a request's path and a scripted
 * reply's `path` are compared.
 *
 * @module
 */

/** The path under the base path, or `undefined` when the request is outside it. */
export function underBase(pathname: string, basePath: string): string | undefined {
  if (basePath === '') return pathname;
  if (pathname === basePath) return '/';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
}

/** Removes the base path (and a leading /v1 in any case) from a scripted reply's path. */
export function stripBase(pathname: string, basePath: string): string {
  for (const base of [basePath, '/v1']) {
    if (base === '') continue;
    if (pathname === base) return '/';
    if (pathname.startsWith(`${base}/`)) return pathname.slice(base.length);
  }
  return pathname;
}

/** Percent-decodes each segment, so `acme/base` and `acme%2Fbase` name the same model. */
export function decodeSegments(path: string): string {
  try {
    return path
      .split('/')
      .map((s) => decodeURIComponent(s))
      .join('/');
  } catch {
    return path; // malformed escapes: match nothing rather than fail
  }
}
