import type { MailMessage } from './mailer.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Every interpolated value goes through this: names and links are data, never markup. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

function layout(title: string, paragraphs: string[], link?: { href: string; label: string }): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>\n` : ''}</body></html>`;
}

export function passwordResetMail(to: string, name: string, link: string, siteName: string): MailMessage {
  const lines = [
    `Hello ${name},`,
    `someone asked to reset the password of your ${siteName} account. The link below works once, for one hour.`,
    'If it was not you, ignore this mail: your password stays as it is.',
  ];
  return {
    to,
    subject: `Reset your ${siteName} password`,
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout(`Reset your ${siteName} password`, lines, { href: link, label: 'Choose a new password' }),
  };
}

export function invitationMail(to: string, name: string, link: string, siteName: string): MailMessage {
  const lines = [
    `Hello ${name},`,
    `you are invited to ${siteName}. Choose your password with the link below; it works once, for seven days.`,
  ];
  return {
    to,
    subject: `Your invitation to ${siteName}`,
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout(`Your invitation to ${siteName}`, lines, { href: link, label: 'Choose your password' }),
  };
}

/** A one-time sign-in code (docs/api.md, "Multi-factor authentication"): the only place it ever appears. */
export function mfaCodeMail(to: string, name: string, code: string, siteName: string, purpose: 'login' | 'setup'): MailMessage {
  const why = purpose === 'login' ? `to finish signing in to ${siteName}` : `to turn on email codes for your ${siteName} account`;
  const lines = [
    `Hello ${name},`,
    `your code ${why} is ${code}. It works once, for ten minutes.`,
    'If it was not you, change your password: someone knows it.',
  ];
  return {
    to,
    subject: `Your ${siteName} code`,
    text: `${lines.join('\n\n')}\n`,
    html: layout(`Your ${siteName} code`, lines),
  };
}
