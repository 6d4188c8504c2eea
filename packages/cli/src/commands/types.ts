import { writeFileSync } from 'node:fs';
import { CliError, EXIT, type Command } from '../command.js';
import { fetchTypeSchemas } from '../json-schema/type-schemas.js';
import { connect, SERVER_OPTIONS } from '../profiles/resolve-connection.js';
import { generateTypes } from '../types/generate-types.js';

/** `vellum types`: TypeScript interfaces for the server's content model (docs/cli.md, "Types"). */
export const typesCommand: Command = {
  name: 'types',
  summary: "Generate TypeScript interfaces from the server's schemas (GET /config/schemas)",
  synopsis: '',
  options: {
    ...SERVER_OPTIONS,
    out: { type: 'string', short: 'o', value: 'FILE', help: 'write to FILE instead of stdout' },
  },
  args: { min: 0, max: 0 },
  notes:
    'One interface per schema plus VellumSchemas ({ post: Post; … }); with locales, <Type>AllLocales for locale=* reads (Localized<T>). Example: vellum types -o src/vellum-types.ts',
  async run({ flags }) {
    const { client } = await connect(flags);
    const schemas = await fetchTypeSchemas(client);
    const locales = await client.config.locales();
    const source = generateTypes(
      schemas,
      locales?.list.map((l) => l.code),
    );
    const out = flags.string('out');
    if (out === undefined) {
      process.stdout.write(source);
      return EXIT.ok;
    }
    try {
      writeFileSync(out, source);
    } catch (err) {
      throw new CliError(`cannot write ${out}: ${(err as Error).message}`, EXIT.cantCreate);
    }
    process.stderr.write(`wrote ${schemas.length} schema types to ${out}\n`);
    return EXIT.ok;
  },
};
