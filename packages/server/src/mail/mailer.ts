import nodemailer from 'nodemailer';

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
  const transport = nodemailer.createTransport(mail.smtpUrl);
  const from = mail.from ?? 'Vellum <no-reply@localhost>';
  return {
    configured: true,
    send: async (m) => {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
  };
}
