import { CopyOnce } from '../../ui/copy-once';

/**
 * A link the server answered because no mail could carry it (no `mail.smtpUrl`; docs/api.md,
 * "Password reset and invitations"): an invitation (`inviteUrl`, or a fresh one for a user who has
 * not accepted theirs) or a password reset (`resetUrl`).
 */
export interface UnsentLink {
  kind: 'invite' | 'reset';
  email: string;
  url: string;
}

const WORDS = {
  invite: { title: 'Invitation link', does: 'lets them choose a password', lives: 'seven days' },
  reset: { title: 'Password reset link', does: 'lets them choose a new password', lives: 'one hour' },
};

/** The link with a copy button, shown until "Done": the server hands it out only once. */
export function UnsentLinkPanel({ link, onDone }: { link: UnsentLink; onDone(): void }) {
  const w = WORDS[link.kind];
  return (
    <section className="panel stack" aria-labelledby="unsent-link-title">
      <h2 id="unsent-link-title">
        {w.title} for {link.email}
      </h2>
      <p>
        Mail is not configured on this server (<code>mail.smtpUrl</code>), so no mail was sent. Pass this link on to {link.email} yourself:
        it {w.does}, works once and for {w.lives}, and is shown only now.
      </p>
      <CopyOnce label={w.title} value={link.url} />
      <div className="row">
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
