// @ts-check
// Local typedoc plugin (typedoc.json `plugin`): makes the site read like a manual.
//
// - The guides are listed as "Guides" (when groups are shown). A guide's title is its first
//   heading ("Testing your app"), not its file name ("testing"); its address keeps the file name.
// - Modules are named by the import path a user writes: `model-inference-sdk`, `model-inference-sdk/testing`,
//   … instead of the source layout (`index`, `testing`). Without it the guide `testing` and the
//   folder of the module `testing/msw` merge into one confusing navigation entry.
// - The `await using` method is listed as `[Symbol.asyncDispose]`, the key a user knows, not the
//   name of the constant it is keyed by in the source (`asyncDispose`, util/dispose.ts).
import { readFileSync } from 'node:fs';
import { Converter, ReflectionKind, RendererEvent } from 'typedoc';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** @param {import('typedoc').Application} app */
export function load(app) {
  /** @type {Map<import('typedoc').DocumentReflection, string>} */
  const titles = new Map();

  app.converter.on(Converter.EVENT_CREATE_DOCUMENT, (_context, doc) => {
    // Listed as "Guides" in the navigation, not typedoc's "Documents".
    doc.frontmatter['group'] ??= 'Guides';
    // The heading may span several parts: "# Migrating from the ", "`openai`", " package\n…",
    // and a generated guide starts with an HTML comment ("Generated from …") before it.
    // The heading stays in the page: typedoc's document pages have no title of their own.
    const lines = doc.content.map((part) => part.text).join('').split('\n');
    const line = lines.find((l) => l.trim() !== '' && !/^\s*<!--.*-->\s*$/.test(l)) ?? '';
    const heading = /^#[ \t]+(.+?)[ \t]*$/.exec(line);
    if (heading) titles.set(doc, heading[1].replace(/`/g, ''));
  });

  // After the pages' addresses are set (from the file names), before anything is written.
  app.renderer.on(
    RendererEvent.BEGIN,
    () => {
      for (const [doc, title] of titles) doc.name = title;
    },
    1000,
  );

  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      if (module.name.startsWith(pkg.name)) continue;
      module.name = module.name === 'index' ? pkg.name : `${pkg.name}/${module.name}`;
    }
    for (const method of context.project.getReflectionsByKind(ReflectionKind.Method)) {
      if (method.name !== '[asyncDispose]') continue;
      method.name = '[Symbol.asyncDispose]';
      for (const signature of method.signatures ?? []) signature.name = method.name;
    }
  });
}
