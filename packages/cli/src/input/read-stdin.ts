import { CliError, EXIT } from '../command.js';

/** All of stdin as text (a pipe or a file; on a terminal, what is typed until Ctrl-D). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A secret (password, token) from stdin: its first line, so `echo "$PW" | vellum …` and
 * `vellum … < file` both work. On a terminal it is asked for without echo. Secrets are never
 * flag values, which would land in shell history and in `ps`.
 */
export async function readSecret(prompt: string): Promise<string> {
  const secret = process.stdin.isTTY ? await promptHidden(prompt) : (await readStdin()).split(/\r?\n/)[0];
  if (!secret) throw new CliError(`${prompt.replace(/:\s*$/, '')}: nothing on stdin`, EXIT.usage);
  return secret;
}

function promptHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    let value = '';
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') return done(new CliError('interrupted', 130));
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
