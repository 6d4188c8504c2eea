import { EXIT, type Command } from '../command.js';
import { JSON_OPTION, printJson } from '../output/json-output.js';
import { loadServerConfig } from '../server-config.js';
import { CONFIG_OPTIONS } from './serve.js';

/** `vellum migrate`: the database schema up to date, without starting the server (docs/cli.md). */
export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Apply the database migrations not yet applied (vellum serve also runs them at start-up)',
  synopsis: '',
  options: { ...CONFIG_OPTIONS, ...JSON_OPTION('the migrations applied ({applied: [names]})') },
  args: { min: 0, max: 0 },
  notes: 'The database is the configured one (database.url, or DATABASE_URL). Prints each migration applied.',
  async run({ flags }) {
    const config = await loadServerConfig(flags.string('config'));
    const { migrateDatabase } = await import('@vellum/server');
    const applied = await migrateDatabase(config);
    if (flags.boolean('json')) {
      printJson({ applied });
      return EXIT.ok;
    }
    for (const name of applied) process.stdout.write(`applied ${name}\n`);
    process.stdout.write(applied.length === 0 ? 'the database is up to date\n' : `${applied.length} migrations applied\n`);
    return EXIT.ok;
  },
};
