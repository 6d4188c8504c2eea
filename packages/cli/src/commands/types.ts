import { writeFileSync } from 'node:fs';
import { CliError, EXIT, type Command, type Flags } from '../command.js';
import { fetchTypeSchemas, type TypeSchema } from '../json-schema/type-schemas.js';
import { loadServerConfig } from '../server-config.js';
import { connect, SERVER_OPTIONS } from '../profiles/resolve-connection.js';
import { generateTypes } from '../types/generate-types.js';

/** `vellum types`: TypeScript interfaces for the server's content model (docs/cli.md, "Types"). */
export const typesCommand: Command = {
  name: 'types',
  summary: "Generate TypeScript interfaces from the server's schemas (GET /config/schemas), or from a config file",
  synopsis: '',
  options: {
    ...SERVER_OPTIONS,
    config: { type: 'string', value: 'FILE', help: 'read the schemas from this config file instead of a server (no server needed)' },
    out: { type: 'string', short: 'o', value: 'FILE', help: 'write to FILE instead of stdout' },
  },
  args: { min: 0, max: 0 },
  notes:
    'One interface per schema plus VellumSchemas ({ post: Post; … }); with locales, <Type>AllLocales for locale=* reads (Localized<T>).\n' +
    'Examples: vellum types -o src/vellum-types.ts (from the server); vellum types --config vellum.config.ts -o vellum-types.ts (offline)',
  async run({ flags }) {
    const configPath = flags.string('config');
    const source = configPath !== undefined ? await typesFromConfig(configPath) : await typesFromServer(flags);
    const out = flags.string('out');
    if (out === undefined) {
      process.stdout.write(source.text);
      return EXIT.ok;
    }
    try {
      writeFileSync(out, source.text);
    } catch (err) {
      throw new CliError(`cannot write ${out}: ${(err as Error).message}`, EXIT.cantCreate);
    }
    process.stderr.write(`wrote ${source.count} schema types to ${out}\n`);
    return EXIT.ok;
  },
};

interface TypesSource {
  text: string;
  count: number;
}

async function typesFromServer(flags: Flags): Promise<TypesSource> {
  const { client } = await connect(flags);
  const schemas = await fetchTypeSchemas(client);
  const locales = await client.config.locales();
  return {
    text: generateTypes(
      schemas,
      locales?.list.map((l) => l.code),
    ),
    count: schemas.length,
  };
}

/** The same types from the configuration alone, as the server would describe it (`describeContentModel`). */
export async function typesFromConfig(configPath: string): Promise<TypesSource> {
  const config = await loadServerConfig(configPath);
  const { describeContentModel } = await import('@vellum/server');
  const { schemas, locales } = describeContentModel(config);
  return {
    text: generateTypes(
      schemas as TypeSchema[],
      locales?.list.map((l) => l.code),
    ),
    count: schemas.length,
  };
}
