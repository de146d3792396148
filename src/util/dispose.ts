/**
 * `Symbol.asyncDispose`, the key `await using` calls when its block is left. Where the runtime
 * lacks it (some Node 20 releases), the registered `Symbol.for('Symbol.asyncDispose')`: the one
 * TypeScript's and esbuild's `await using` helpers and core-js fall back to. Read once, never set:
 * the global is not polyfilled (the package has no side effects).
 */
export const asyncDispose: typeof Symbol.asyncDispose =
  Symbol.asyncDispose ?? (Symbol.for('Symbol.asyncDispose') as typeof Symbol.asyncDispose);

// For a project whose `lib` lacks `esnext.disposable` (and has no @types/node, which declares it
// too): the type of the key, as lib.esnext.disposable declares it. Types only; nothing is set.
declare global {
  interface SymbolConstructor {
    readonly asyncDispose: unique symbol;
  }
}
