import { afterAll, beforeAll } from 'vitest';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  raw: string;
  /** Headers and bodies with quoted-printable soft breaks and escapes undone. */
  decoded: string;
}

/** A real SMTP server on loopback that keeps every message it receives. */
export async function startMailCatcher() {
  const mails: CaughtMail[] = [];
  const arrivals = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        const decoded = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, decoded });
        for (const arrived of arrivals) arrived();
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Waits for the n-th mail to `to` (mails go out after the HTTP answer). */
    waitFor(to: string, count = 1, timeoutMs = 5000): Promise<CaughtMail> {
      return new Promise((resolve, reject) => {
        const arrived = () => {
          const matching = mails.filter((m) => m.to.includes(to));
          if (matching.length < count) return;
          finish();
          resolve(matching[count - 1]);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no mail #${count} to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          arrivals.delete(arrived);
        };
        arrivals.add(arrived);
        arrived();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;

/** A mail catcher for the whole suite: started before the suite's other hooks, closed after them. */
export function useMailCatcher(): Pick<MailCatcher, 'url' | 'mails' | 'waitFor'> {
  let catcher: MailCatcher | undefined;
  beforeAll(async () => {
    catcher = await startMailCatcher();
  });
  afterAll(() => catcher?.close());
  const started = () => {
    if (!catcher) throw new Error('the mail catcher starts in beforeAll');
    return catcher;
  };
  return {
    get url() {
      return started().url;
    },
    get mails() {
      return started().mails;
    },
    waitFor: (...args) => started().waitFor(...args),
  };
}
