import { readFileSync } from 'node:fs';
import { CliError, EXIT, type Flags } from '../command.js';
import { readStdin } from './read-stdin.js';

/**
 * The JSON object of a create or update: `--data '<json>'`, `--file path.json`, or stdin
 * (`--file -`, or `-` as the last argument). Exactly one source; not an object → exit 65.
 */
export async function readDocument(flags: Flags, dash: boolean): Promise<Record<string, unknown>> {
  const data = flags.string('data');
  const file = flags.string('file');
  const sources = [data !== undefined, file !== undefined, dash].filter(Boolean).length;
  if (sources !== 1) throw new CliError('give the document once: --data JSON, --file PATH, or - for stdin', EXIT.usage);
  let text: string;
  let from: string;
  if (data !== undefined) [text, from] = [data, '--data'];
  else if (file === undefined || file === '-') [text, from] = [await readStdin(), 'stdin'];
  else {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new CliError(
        `cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
        EXIT.noInput,
      );
    }
    from = file;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`${from} is not valid JSON: ${(err as Error).message}`, EXIT.dataErr);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError(`${from} must be a JSON object`, EXIT.dataErr);
  return value as Record<string, unknown>;
}
