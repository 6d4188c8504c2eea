import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail; `configured` is false when no SMTP server is set (mails are then dropped with a warning). */
export interface Mailer {
  readonly configured: boolean;
  send(message: MailMessage): Promise<void>;
}

/** SMTP through nodemailer (`mail.smtpUrl`, e.g. `smtp://user:pass@host:587`, `smtps://…`). */
export function createMailer(mail: { smtpUrl?: string; from?: string } | undefined, warn: (msg: string) => void): Mailer {
  if (!mail?.smtpUrl) {
    return {
      configured: false,
      send: async (m) => warn(`mail is not configured (mail.smtpUrl); dropped "${m.subject}"`),
    };
  }
  const smtpUrl = mail.smtpUrl;
  const from = mail.from ?? 'Vellum <no-reply@localhost>';
  // nodemailer (about 4 MB of memory) is loaded with the first message, not at start-up.
  let transport: Promise<Transporter> | undefined;
  return {
    configured: true,
    send: async (m) => {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
      await (await transport).sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
  };
}

/** Connects to the SMTP server and says hello (nodemailer's `verify`), without sending (`vellum doctor`). */
export async function verifyMailServer(smtpUrl: string, ms = 5_000): Promise<void> {
  const { default: nodemailer } = await import('nodemailer');
  const url = new URL(smtpUrl);
  for (const [name, value] of [
    ['connectionTimeout', ms],
    ['greetingTimeout', ms],
    ['socketTimeout', ms],
  ] as const)
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
  const transport = nodemailer.createTransport(url.toString());
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}
