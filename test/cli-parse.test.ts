// The CLI's argument reading in process: parseCommand() (the preamble every command shares) and
// the "did you mean" matching. The command line as a whole is tested by running the CLI
// (test/cli.test.ts); these are the corner cases that would take a process each there.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/cli/command';
import { defineCommand, parseCommand } from '../src/cli/parse-command';
import { closest } from '../src/util/suggest';

const spec = {
  name: 'chat',
  positionals: true,
  options: {
    model: { type: 'string', short: 'm', valueName: 'slug' },
    temperature: { type: 'string', valueName: 'x' },
    verbose: { type: 'boolean', short: 'v', default: false },
    json: { type: 'boolean', default: false },
    tag: { type: 'string', multiple: true, default: ['default'] },
  },
} as const;

const usage = (args: string[], s: Parameters<typeof parseCommand>[1] = spec): string => {
  try {
    parseCommand(args, s);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`no UsageError for ${JSON.stringify(args)}`);
};

describe('parseCommand', () => {
  it('reads values, defaults, grouped and inline forms, and everything after -- as arguments', () => {
    expect(parseCommand(['-vm', 'acme/a', '--temperature=-0.5', 'hello', '--', '--json', '-m'], spec)).toEqual({
      values: { model: 'acme/a', temperature: '-0.5', verbose: true, json: false, tag: ['default'] },
      positionals: ['hello', '--json', '-m'],
      help: false,
    });
    expect(parseCommand(['-macme/b', '--temperature', '-1'], spec).values).toMatchObject({ model: 'acme/b', temperature: '-1' });
  });

  it('a repeated option collects its values; the first one replaces the default', () => {
    expect(parseCommand(['--tag', 'a', '--tag=b'], spec).values.tag).toEqual(['a', 'b']);
    expect(parseCommand([], spec).values.tag).toEqual(['default']);
  });

  it('-h and --help win over any other mistake', () => {
    expect(parseCommand(['--bogus', '-m', '--help'], spec).help).toBe(true);
    expect(parseCommand(['-h'], spec).help).toBe(true);
    expect(parseCommand(['--', '--help'], spec)).toMatchObject({ help: false, positionals: ['--help'] });
  });

  it("explains mistakes in the CLI's words", () => {
    expect(usage(['--jsn'])).toBe("unknown option '--jsn'. Did you mean '--json'?");
    expect(usage(['--verbos'])).toBe("unknown option '--verbos'. Did you mean '--verbose'?");
    expect(usage(['--MODEL', 'x'])).toBe("unknown option '--MODEL'. Did you mean '--model'?");
    expect(usage(['--nothing-like-it'])).toBe("unknown option '--nothing-like-it'.");
    expect(usage(['-verbose'])).toBe("unknown option '-verbose'. Did you mean '--verbose'?");
    expect(usage(['-vx'])).toBe("unknown option '-x'.");
    expect(usage(['-V'])).toBe("unknown option '-V'. Did you mean '-v'?");
    expect(usage(['-m'])).toBe("'-m, --model <slug>' needs a value.");
    expect(usage(['--temperature'])).toBe("'--temperature <x>' needs a value.");
    expect(usage(['-m', '-v'])).toBe("'-m, --model <slug>' needs a value, got the option '-v'. To pass a value that starts with '-', write --model=-v.");
    expect(usage(['--json=false'])).toBe("'--json' takes no value, got '--json=false'.");
    expect(usage(['--version'])).toBe("unknown option '--version': the version is 'model-inference-sdk --version'.");
    expect(usage(['extra'], { ...spec, name: 'mock-server', positionals: false })).toBe("unexpected argument 'extra': 'mock-server' takes options only.");
  });

  it('defineCommand prints the help for --help, and hands typed values to run()', async () => {
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t), signal: new AbortController().signal };
    const hello = defineCommand({
      name: 'hello',
      summary: 'say hello',
      help: 'Usage: model-inference-sdk hello [--loud]\n',
      options: { loud: { type: 'boolean', default: false }, name: { type: 'string' } },
      async run({ values }, io) {
        const loud: boolean = values.loud;
        const name: string | undefined = values.name;
        io.stdout(`${loud ? 'HELLO' : 'hello'} ${name ?? 'you'}\n`);
        return 0;
      },
    });
    expect(await hello.run(['--help'], io)).toBe(0);
    expect(await hello.run(['--loud', '--name', 'Ada'], io)).toBe(0);
    expect(out).toEqual(['Usage: model-inference-sdk hello [--loud]\n', 'HELLO Ada\n']);
    await expect(hello.run(['--lod'], io)).rejects.toThrow("unknown option '--lod'. Did you mean '--loud'?");
  });
});

describe('closest', () => {
  it('finds typos, swaps, prefixes and case or _ differences; nothing when nothing is close', () => {
    expect(closest('prot', ['port', 'host'])).toEqual(['port']);
    expect(closest('modle', ['model', 'mock'])).toEqual(['model']);
    expect(closest('temp', ['temperature', 'json'])).toEqual(['temperature']);
    expect(closest('max_tokens', ['max-tokens'])).toEqual(['max-tokens']);
    expect(closest('cht', ['chat', 'complete'])).toEqual(['chat']);
    expect(closest('mock-sever', ['mock-server', 'models'])).toEqual(['mock-server']);
    expect(closest('xyz', ['json', 'mock'])).toEqual([]);
    expect(closest('m', ['model', 'mock'])).toEqual([]);
    expect(closest('gte', ['get', 'list'])).toEqual(['get']);
  });
});
