import { useState } from 'react';

/** Backup codes, shown once (docs/authentication.md): copy them or download them as a text file. */
export function BackupCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n') + '\n';
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: 'vellum-backup-codes.txt' });
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section className="stack" aria-labelledby="backup-codes-title">
      <h2 id="backup-codes-title">Your backup codes</h2>
      <p>Each code works once, if you lose your authenticator. They are shown only now: keep them somewhere safe.</p>
      <ul className="codes" data-testid="backup-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="row">
        <button
          type="button"
          // A refused clipboard leaves the button as it was (the browser logs it): the codes are on screen and downloadable.
          onClick={() => void copy()}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={download}>
          Download
        </button>
      </div>
    </section>
  );
}
