#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MEDIA_UPLOAD_USAGE, mediaUpload } from './media-upload.js';
import { serve } from './serve.js';

const USAGE = `Usage: vellum <command> [options]

Commands:
  serve    Start the Vellum server
           --config FILE   config file (default: vellum.config.{json,js,mjs,ts} in the working directory)
           --port N        port (default 3000, or PORT)
           --host H        host (default 0.0.0.0, or HOST)
${MEDIA_UPLOAD_USAGE}  help     Show this help (also -h, --help)
  --version, -v    Print the version
`;

/** The CLI package's version, read next to the running file (dist/ or src/) so it never drifts. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({
        args: rest,
        options: { config: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } },
        strict: true,
      });
      return serve({ configPath: values.config, port: values.port, host: values.host });
    }
    case 'media': {
      const [sub, ...subArgs] = rest;
      if (sub === 'upload') return mediaUpload(subArgs);
      process.stderr.write(`vellum: unknown media command "${sub ?? ''}"\n\n${USAGE}`);
      return 64;
    }
    case '--version':
    case '-v':
      process.stdout.write(`${version()}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`vellum: unknown command "${command}"\n\n${USAGE}`);
      return 64;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`vellum: ${(err as Error).message}\n`);
    process.exitCode = 64;
  },
);
