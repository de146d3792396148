// Emits src/generated/normalize.gen.ts: one function per response object schema that reads a
// parsed JSON value into the schema's declared shape, in place, following the schema's
// extensions (see spec/openapi.yaml's description), and records an issue where a value the
// contract needs cannot be derived. The readers of stream chunks (`readChatCompletionChunk…`, run
// on every event of every stream) are straight-line code, field by field, with no allocation on the
// common path; the others read each field with one call of the runtime's `field()` (fewer bytes,
// the same effect; see fieldCall()), except the fields it does not cover (aliases, synonyms,
// text parts, an object in place of an array, items that may be null), written out as well.
import { isNullable, withoutNull, type Node, type ObjectNode, type Prop, type Schema } from './model';
import { type Emitter, absentTests, expected, fnName, indent, isObjectRef, liftName, literal, objectFunction, resolve, resolveNullable, test } from './emitter';

/** The response schemas the SDK reads, exported as `normalize<Name>`. */
export const ROOTS = ['ChatCompletion', 'ChatCompletionChunk', 'Completion', 'Model', 'ModelList'] as const;

/** The body of normalize.gen.ts (after the header and the runtime). */

export function emitNormalizer(schemas: readonly Schema[]): string {
  const emitter: Emitter = {
    schemas: new Map(schemas.map((s) => [s.name, s])),
    functions: new Map(),
    queue: [],
    synonymTables: new Set(),
    counter: 0,
  };
  for (const root of ROOTS) objectFunction(emitter, root);
  while (emitter.queue.length > 0) {
    const next = emitter.queue.shift()!;
    emitter.functions.set(next.name, emitObject(emitter, next.name, next.node));
  }

  const out: string[] = [];
  for (const name of [...emitter.synonymTables].sort()) {
    const table = emitter.schemas.get(name)!.synonyms!;
    out.push(
      `/** \`x-synonyms\` of \`${name}\`: the value a wire string is read as, or \`undefined\` for itself. */`,
      `function ${name}Synonym(value: string): string | null | undefined {`,
      '  switch (value) {',
      ...[...table].map(([from, to]) => `    case ${literal(from)}: return ${literal(to)};`),
      '    default: return undefined;',
      '  }',
      '}',
      '',
    );
  }
  for (const root of ROOTS) {
    out.push(
      `/** Read a parsed \`${root}\` response into its declared shape, in place; problems go to \`cx.issues\`. */`,
      `export function normalize${root}(value: unknown, cx: NormalizeContext): ${root} {`,
      `  if (isObj(value)) ${fnName(root)}(value, cx, 0);`,
      `  else cx.issues.push({ path: [], message: \`expected object, got \${typeName(value)}\`, received: value });`,
      `  return value as ${root};`,
      '}',
      '',
    );
  }
  for (const [, code] of [...emitter.functions].sort(([a], [b]) => a.localeCompare(b))) out.push(code, '');
  return out.join('\n');
}

/** The function that reads objects of schema `name` (queued for emission on first use). */

/** Resolve refs to non-object schemas (FinishReason) to their node, keeping the schema name for synonyms. */

function emitObject(emitter: Emitter, fn: string, node: ObjectNode): string {
  const lines: string[] = [];
  const wireOnly = node.props.filter((p) => p.wireOnly);
  const derived = node.props.filter((p) => p.derive);
  const plain = node.props.filter((p) => !p.wireOnly && !p.derive);
  const usesPos = node.props.some((p) => p.defaultPosition);

  lines.push(`function ${fn}(o: Obj, cx: NormalizeContext, ${usesPos ? 'pos' : '_pos'}: number): void {`);
  lines.push('  let x: unknown;');
  lines.push('  let n: number;');
  // Wire-only fields first (checked as sent), then derivations (from the object as sent), then
  // every other field in declaration order, then the derived values.
  for (const prop of wireOnly) lines.push(...emitProp(emitter, prop, fn));
  derived.forEach((prop, i) => {
    lines.push(`  // ${prop.name}: x-derive ${prop.derive}`);
    lines.push(`  x = o[${literal(prop.name)}];`);
    lines.push(`  if (x !== undefined && x !== null && !(${test(emitter, withoutNull(prop.node), 'x')})) issue(cx, ${literal(prop.name)}, ${literal(expected(emitter, prop.node))}, x);`);
    lines.push(`  const d${i} = ${deriveCall(prop)}(o);`);
  });
  for (const prop of plain) lines.push(...emitProp(emitter, prop, fn));
  derived.forEach((prop, i) => {
    const key = literal(prop.name);
    lines.push(`  if (d${i} !== undefined) { if (o[${key}] !== d${i}) o[${key}] = d${i}; }`);
    if (prop.required) lines.push(`  else if (o[${key}] === undefined || o[${key}] === null) issue(cx, ${key}, ${literal(expected(emitter, prop.node))}, undefined);`);
    else lines.push(`  else if (o[${key}] !== undefined) delete o[${key}];`);
  });
  lines.push('}');
  // `x` and `n` only where a written-out field uses them (not in a function of `field()` calls alone).
  const code = lines.slice(3).filter((line) => !line.trimStart().startsWith('//')).join('\n');
  if (!/\bn = /.test(code)) lines.splice(2, 1);
  if (!/\bx\b/.test(code)) lines.splice(1, 1);
  return lines.join('\n');
}

function deriveCall(prop: Prop): string {
  switch (prop.derive) {
    case 'reasoning':
      return 'reasoning';
    case 'reasoning-raw':
      return 'reasoningRaw';
    case 'content-parts':
      return 'contentParts';
    case 'total-tokens':
      return 'totalTokens';
    default:
      throw new Error(`normalizer: no rule for ${String(prop.derive)}`);
  }
}

/** The statements that read one field of `o`. */

function emitProp(emitter: Emitter, prop: Prop, fn: string): string[] {
  const key = literal(prop.name);
  const lines: string[] = [`  // ${prop.name}`];
  const { node: resolvedNode, synonyms } = resolveNullable(emitter, prop.node);
  const nullable = isNullable(resolvedNode);
  const valueNode = withoutNull(resolvedNode);

  lines.push(`  x = o[${key}];`);
  if (prop.aliases) {
    // Another name the server used, read when this one is absent; it is then read (and
    // converted) under this name. Every alias present is checked, as the wire schema does.
    const wireTest = aliasTest(emitter, prop);
    for (const alias of prop.aliases) {
      const a = literal(alias);
      lines.push(`  if (o[${a}] !== undefined && o[${a}] !== null) {`);
      lines.push(`    if (!(${wireTest.replaceAll('$', `o[${a}]`)})) issue(cx, ${a}, ${literal(expected(emitter, prop.node, new Set(prop.convert ?? [])))}, o[${a}]);`);
      lines.push(`    else if (x === undefined || x === null) { x = o[${a}]; o[${key}] = x; }`);
      lines.push('  }');
    }
  }
  if (prop.fixed) {
    const value = (valueNode as { values: readonly string[] }).values[0]!;
    if (prop.required) {
      if (compact(fn)) {
        if (!prop.aliases) lines.splice(1, 1);
        lines.push(`  fixed(o, ${key}, ${literal(value)});`);
      }
      else lines.push(`  if (x !== ${literal(value)}) o[${key}] = ${literal(value)};`);
    } else {
      lines.push(`  if (x === undefined || x === null${absentTests(prop, 'x')}) { if (x !== undefined) delete o[${key}]; }`);
      lines.push(`  else if (x !== ${literal(value)}) o[${key}] = ${literal(value)};`);
    }
    return lines;
  }
  if (synonyms) {
    emitter.synonymTables.add(synonyms);
    lines.push(`  if (typeof x === 'string') { const s = ${synonyms}Synonym(x); if (s !== undefined) { x = s; o[${key}] = s; } }`);
  }
  const call = compact(fn) ? fieldCall(emitter, prop, resolvedNode, key, fn) : undefined;
  if (call) {
    // `field()` reads `o[key]` itself (which the aliases and synonyms above kept equal to `x`).
    if (!prop.aliases && !synonyms) lines.splice(1, 1);
    lines.push(`  ${call};`);
    return lines;
  }
  // "None": absent, a null the type does not allow, or one of x-absent's values.
  const noneTest = `x === undefined${nullable ? '' : ' || x === null'}${absentTests(prop, 'x')}`;
  if (nullable && noneTest === 'x === undefined' && prop.default === undefined && !prop.defaultPosition && !prop.required) {
    // Optional and nullable: nothing to fill or remove.
    lines.push(`  if (x !== undefined && x !== null) {`);
    lines.push(...indent(emitValue(emitter, valueNode, prop, key, fn), 4));
    lines.push('  }');
    return lines;
  }
  lines.push(`  if (${noneTest}) {`);
  if (prop.default !== undefined) {
    const value = prop.default.value;
    if (isObjectRef(emitter, valueNode) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const child = objectFunction(emitter, (valueNode as { name: string }).name);
      lines.push(`    const y: Obj = ${literal(value)};`, `    o[${key}] = y;`, `    ${child}(y, cx, 0);`);
    } else {
      lines.push(`    o[${key}] = ${literal(value)};`);
    }
  } else if (prop.defaultPosition) {
    lines.push(`    o[${key}] = pos;`);
  } else if (prop.required) {
    lines.push(`    issue(cx, ${key}, ${literal(expected(emitter, prop.node))}, undefined);`);
  } else {
    lines.push(`    if (o[${key}] !== undefined) delete o[${key}];`);
  }
  if (nullable) {
    lines.push(`  } else if (x !== null) {`);
  } else {
    lines.push('  } else {');
  }
  lines.push(...indent(emitValue(emitter, valueNode, prop, key, fn), 4));
  lines.push('  }');
  return lines;
}

/** Whether the fields of `fn` are read by calls of the runtime's `field()` (all but the stream's chunks, kept written out for speed). */

function compact(fn: string): boolean {
  return !fn.startsWith('readChatCompletionChunk');
}

/**
 * The `field(o, cx, key, mode, fill, want, check, …)` call that reads `prop` as emitProp's
 * written-out statements do, or `undefined` for a field it does not cover (written out then).
 */

function fieldCall(emitter: Emitter, prop: Prop, resolvedNode: Node, key: string, fn: string): string | undefined {
  const nullable = isNullable(resolvedNode);
  const valueNode = withoutNull(resolvedNode);
  let mode = nullable ? 4 : 0;
  absentTests(prop, 'x'); // throws on a value it cannot test
  for (const value of prop.absent ?? []) mode |= value === '' ? 8 : 16;
  let fill = '0';
  if (prop.default !== undefined) {
    const value = prop.default.value;
    mode |= 1;
    if (isObjectRef(emitter, valueNode) && typeof value === 'object' && value !== null && !Array.isArray(value)) mode |= 32;
    fill = literal(value);
  } else if (prop.defaultPosition) {
    mode |= 1;
    fill = 'pos';
  } else if (prop.required) {
    mode |= 2;
    fill = literal(expected(emitter, prop.node));
  }
  const check = fieldCheck(emitter, valueNode, prop, fn);
  if (!check) return undefined;
  const convert = new Set(prop.convert ?? []);
  const want = literal(expected(emitter, prop.wire ?? valueNode, convert));
  return `field(o, cx, ${key}, ${mode}, ${fill}, ${want}, ${check.join(', ')})`;
}

/** The check (and its arguments) of a present value of `node`, as emitValue writes it out; `undefined` when there is none. */

function fieldCheck(emitter: Emitter, node: Node, prop: Prop, fn: string): string[] | undefined {
  const convert = new Set(prop.convert ?? []);
  if (convert.has('text-parts')) return undefined;
  switch (node.kind) {
    case 'string':
      if (convert.has('number-decimal')) return ['decimalStr'];
      if (convert.has('json-text')) return ['jsonStr'];
      return ['str'];
    case 'integer':
      return [convert.has('unix-seconds') ? 'unix' : 'int'];
    case 'number':
      return ['num'];
    case 'boolean':
      return ['bool'];
    case 'unknown':
      return ['anyValue'];
    case 'array': {
      if (convert.has('object-in-array')) return undefined;
      const { node: item } = resolve(emitter, node.items);
      if (isNullable(item)) return undefined;
      const value = withoutNull(item);
      const want = literal(expected(emitter, node.items));
      const isMap = value.kind === 'object' && value.props.length === 0 && typeof value.extra === 'object';
      if (isObjectRef(emitter, value) || (value.kind === 'object' && !isMap)) {
        const child = value.kind === 'ref' ? objectFunction(emitter, value.name) : objectFunction(emitter, liftName(emitter, fn, 'item'), value as ObjectNode);
        return prop.sortBy ? ['objs', child, want, literal(prop.sortBy)] : ['objs', child, want];
      }
      if (prop.sortBy) return undefined;
      const check = { "typeof y === 'string'": 'str', 'Number.isSafeInteger(y)': 'int', "typeof y === 'number'": 'num', "typeof y === 'boolean'": 'bool' }[test(emitter, value, 'y')];
      return check ? ['vals', check, want] : undefined;
    }
    case 'ref':
    case 'object':
      return ['obj', node.kind === 'ref' ? objectFunction(emitter, node.name) : objectFunction(emitter, liftName(emitter, fn, prop.name), node)];
    default:
      return undefined;
  }
}

/** A test (with `$` for the value) of what an alias may hold: the field's type or its converted forms. */

function aliasTest(emitter: Emitter, prop: Prop): string {
  const tests = [test(emitter, withoutNull(prop.node), '$')];
  const convert = new Set(prop.convert ?? []);
  if (convert.has('number-decimal')) tests.push(`typeof $ === 'number'`);
  if (convert.has('unix-seconds')) tests.push(`typeof $ === 'number'`);
  if (prop.convert && [...convert].some((c) => c !== 'number-decimal' && c !== 'unix-seconds')) {
    throw new Error(`normalizer: aliases with ${[...convert].join(', ')} are not supported (${prop.name})`);
  }
  return tests.map((t) => `(${t})`).join(' || ');
}

/**
 * Statements that check the (non-null, present) value in `x` against `node`, applying the
 * property's conversions and writing a converted value back to `o[key]`; issues are recorded
 * under `key`.
 */

function emitValue(emitter: Emitter, node: Node, prop: Prop, key: string, fn: string): string[] {
  const convert = new Set(prop.convert ?? []);
  const want = literal(expected(emitter, prop.wire ?? node, convert));
  if (convert.has('text-parts')) {
    const nullable = isNullable(prop.node);
    const parts = prop.wire && prop.wire.kind === 'union' ? prop.wire.of.find((m) => m.kind === 'array') : undefined;
    if (!parts || parts.kind !== 'array') throw new Error(`normalizer: text-parts needs an array in x-wire (${key})`);
    return [
      `if (Array.isArray(x)) {`,
      `  n = cx.issues.length;`,
      ...indent(emitItems(emitter, parts.items, 'x', fn), 2),
      `  if (cx.issues.length !== n) at(cx, n, ${key});`,
      `  else {`,
      `    const t = partsText(x);`,
      nullable ? `    o[${key}] = t === undefined ? null : t;` : `    if (t === undefined) delete o[${key}]; else o[${key}] = t;`,
      `  }`,
      `} else if (typeof x !== 'string') issue(cx, ${key}, ${want}, x);`,
    ];
  }
  switch (node.kind) {
    case 'string': {
      const lines = [`if (typeof x !== 'string') {`];
      if (convert.has('number-decimal')) lines.push(`  if (typeof x === 'number') o[${key}] = decimal(x);`, `  else issue(cx, ${key}, ${want}, x);`);
      else if (convert.has('json-text')) lines.push(`  o[${key}] = JSON.stringify(x);`);
      else lines.push(`  issue(cx, ${key}, ${want}, x);`);
      lines.push('}');
      return lines;
    }
    case 'integer':
      if (convert.has('unix-seconds')) {
        return [
          `if (typeof x !== 'number') issue(cx, ${key}, ${want}, x);`,
          `else if (!Number.isSafeInteger(x) || x >= 1e11) {`,
          `  const s = seconds(x);`,
          `  if (s === undefined) issue(cx, ${key}, ${want}, x);`,
          `  else o[${key}] = s;`,
          `}`,
        ];
      }
      return [`if (!Number.isSafeInteger(x)) issue(cx, ${key}, ${want}, x);`];
    case 'number':
      return [`if (typeof x !== 'number') issue(cx, ${key}, ${want}, x);`];
    case 'boolean':
      return [`if (typeof x !== 'boolean') issue(cx, ${key}, ${want}, x);`];
    case 'unknown':
      return [];
    case 'array': {
      const lines: string[] = [];
      if (convert.has('object-in-array')) lines.push(`if (isObj(x)) { x = [x]; o[${key}] = x; }`);
      lines.push(`if (Array.isArray(x)) {`, `  n = cx.issues.length;`, ...indent(emitItems(emitter, node.items, 'x', fn), 2));
      if (prop.sortBy) {
        lines.push(`  if (cx.issues.length !== n) at(cx, n, ${key});`, `  else if (x.length > 1) sortBy(x as Obj[], ${literal(prop.sortBy)});`);
      } else {
        lines.push(`  if (cx.issues.length !== n) at(cx, n, ${key});`);
      }
      lines.push(`} else issue(cx, ${key}, ${want}, x);`);
      return lines;
    }
    case 'ref':
    case 'object': {
      const child = node.kind === 'ref' ? objectFunction(emitter, node.name) : objectFunction(emitter, liftName(emitter, fn, prop.name), node);
      return [
        `if (isObj(x)) {`,
        `  n = cx.issues.length;`,
        `  ${child}(x, cx, 0);`,
        `  if (cx.issues.length !== n) at(cx, n, ${key});`,
        `} else issue(cx, ${key}, ${want}, x);`,
      ];
    }
    default:
      throw new Error(`normalizer: unsupported field type ${node.kind} (${key})`);
  }
}

/** A loop over the items of the array in `arr`, each checked against `item`; issues under the item's index. */

function emitItems(emitter: Emitter, item: Node, arr: string, fn: string): string[] {
  const { node } = resolve(emitter, item);
  const nullable = isNullable(node);
  const value = withoutNull(node);
  const lines = [`for (let i = 0; i < ${arr}.length; i++) {`, `  const y = ${arr}[i];`];
  const isMap = value.kind === 'object' && value.props.length === 0 && typeof value.extra === 'object';
  if (isObjectRef(emitter, value) || (value.kind === 'object' && !isMap)) {
    const child = value.kind === 'ref' ? objectFunction(emitter, value.name) : objectFunction(emitter, liftName(emitter, fn, 'item'), value as ObjectNode);
    lines.push(
      `  if (isObj(y)) {`,
      `    const m = cx.issues.length;`,
      `    ${child}(y, cx, i);`,
      `    if (cx.issues.length !== m) at(cx, m, i);`,
      `  } else${nullable ? ' if (y !== null)' : ''} issue(cx, i, ${literal(expected(emitter, item))}, y);`,
    );
  } else {
    lines.push(`  if (${nullable ? 'y !== null && ' : ''}!(${test(emitter, value, 'y')})) issue(cx, i, ${literal(expected(emitter, item))}, y);`);
  }
  lines.push('}');
  return lines;
}

/** A boolean expression: `v` (not null) is of `node`'s type (for items and derived fields). */

/** What a value of `node` is called in an issue's message ("string", "array or object", ...). */
