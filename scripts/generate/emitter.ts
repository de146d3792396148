// The normalizer emitter's shared vocabulary: the state it carries (Emitter), the names and
// queue of the generated functions, refs resolved, and the small expressions every field's code
// is built from (a literal, a type test, what a value is called in an issue). normalizer.ts
// writes the functions with them.
import { isNullable, withoutNull, type Json, type Node, type ObjectNode, type Prop, type Schema } from './model';

export interface Emitter {
  schemas: ReadonlyMap<string, Schema>;
  /** Generated functions, by name (object schemas and lifted inline objects). */
  functions: Map<string, string>;
  /** Names of object schemas still to emit. */
  queue: { name: string; node: ObjectNode }[];
  synonymTables: Set<string>;
  counter: number;
}

export function fnName(name: string): string {
  return `read${name}`;
}

export function objectFunction(emitter: Emitter, name: string, node?: ObjectNode): string {
  const fn = fnName(name);
  if (!emitter.functions.has(fn) && !emitter.queue.some((q) => q.name === fn)) {
    const target = node ?? emitter.schemas.get(name)?.node;
    if (target?.kind !== 'object') throw new Error(`normalizer: ${name} is not an object schema`);
    emitter.functions.set(fn, ''); // reserved
    emitter.queue.push({ name: fn, node: target });
  }
  return fn;
}

export function resolve(emitter: Emitter, node: Node): { node: Node; synonyms?: string | undefined } {
  if (node.kind !== 'ref') return { node };
  const schema = emitter.schemas.get(node.name);
  if (!schema) throw new Error(`normalizer: unknown schema ${node.name}`);
  if (schema.node.kind === 'object') return { node };
  return { node: schema.node, synonyms: schema.synonyms ? schema.name : undefined };
}

export function literal(value: Json): string {
  return JSON.stringify(value);
}

export function resolveNullable(emitter: Emitter, node: Node): { node: Node; synonyms?: string | undefined } {
  if (node.kind === 'union') {
    let synonyms: string | undefined;
    const of = node.of.map((member) => {
      const r = resolve(emitter, member);
      synonyms ??= r.synonyms;
      return r.node;
    });
    return { node: { kind: 'union', of }, synonyms };
  }
  return resolve(emitter, node);
}

export function absentTests(prop: Prop, v: string): string {
  let out = '';
  for (const value of prop.absent ?? []) {
    if (value === '') out += ` || ${v} === ''`;
    else if (Array.isArray(value) && value.length === 0) out += ` || (Array.isArray(${v}) && ${v}.length === 0)`;
    else throw new Error(`normalizer: unsupported x-absent value ${JSON.stringify(value)}`);
  }
  return out;
}

export function isObjectRef(emitter: Emitter, node: Node): boolean {
  return node.kind === 'ref' && emitter.schemas.get(node.name)?.node.kind === 'object';
}

export function liftName(emitter: Emitter, fn: string, prop: string): string {
  const base = `${fn.replace(/^read/, '')}_${prop}`;
  return emitter.schemas.has(base) ? `${base}${++emitter.counter}` : base;
}

export function test(emitter: Emitter, node: Node, v: string): string {
  switch (node.kind) {
    case 'string':
      return `typeof ${v} === 'string'`;
    case 'integer':
      return `Number.isSafeInteger(${v})`;
    case 'number':
      return `typeof ${v} === 'number'`;
    case 'boolean':
      return `typeof ${v} === 'boolean'`;
    case 'unknown':
      return 'true';
    case 'array':
      if (node.items.kind === 'ref' || node.items.kind === 'object') return `Array.isArray(${v})`;
      return `Array.isArray(${v}) && ${v}.every((z: unknown) => ${test(emitter, withoutNull(node.items), 'z')}${isNullable(node.items) ? ' || z === null' : ''})`;
    case 'object':
      if (node.props.length === 0 && typeof node.extra === 'object') {
        return `isObj(${v}) && Object.values(${v}).every((z: unknown) => ${test(emitter, withoutNull(node.extra), 'z')})`;
      }
      return `isObj(${v})`;
    case 'ref':
      return resolve(emitter, node).node.kind === 'ref' ? `isObj(${v})` : test(emitter, resolve(emitter, node).node, v);
    case 'union':
      return node.of.map((m) => (m.kind === 'null' ? `${v} === null` : `(${test(emitter, m, v)})`)).join(' || ');
    default:
      throw new Error(`normalizer: no test for ${node.kind}`);
  }
}

export function expected(emitter: { schemas: ReadonlyMap<string, Schema> }, node: Node, convert: ReadonlySet<string> = new Set()): string {
  const names = new Set<string>();
  const add = (n: Node): void => {
    switch (n.kind) {
      case 'union':
        n.of.forEach(add);
        return;
      case 'ref': {
        const schema = emitter.schemas.get(n.name);
        if (schema && schema.node.kind !== 'object') add(schema.node);
        else names.add('object');
        return;
      }
      case 'unknown':
        names.add('any value');
        return;
      default:
        names.add(n.kind);
    }
  };
  add(node);
  if (convert.has('number-decimal')) names.add('number');
  if (convert.has('object-in-array')) names.add('object');
  if (convert.has('unix-seconds')) {
    names.delete('integer');
    names.add('number');
  }
  const list = [...names];
  return list.length <= 1 ? (list[0] ?? 'value') : `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
}

export function indent(lines: string[], spaces: number): string[] {
  const pad = ' '.repeat(spaces);
  return lines.map((line) => pad + line);
}
