// `node --import scripts/tools-resolve.mjs`: lets files outside a tool folder import its packages
// (eslint.config.js imports typescript-eslint, scripts/generate.ts imports prettier). A bare import
// that the root cannot resolve is tried again from TOOLS_RESOLVE_FROM. Set by
// `node scripts/tools.mjs run <folder> --resolve -- ...`; see scripts/tools.mjs.
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const from = process.env.TOOLS_RESOLVE_FROM;
if (from) {
  const hooks = `
    const fallback = ${JSON.stringify(pathToFileURL(path.join(from, 'package.json')).href)};
    export async function resolve(specifier, context, next) {
      try {
        return await next(specifier, context);
      } catch (error) {
        const bare = !/^[./]|^[a-z][a-z0-9+.-]*:/i.test(specifier);
        if (!bare || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
        return next(specifier, { ...context, parentURL: fallback });
      }
    }
  `;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
