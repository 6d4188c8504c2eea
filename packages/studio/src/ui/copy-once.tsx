import { useState } from 'react';

/** A secret shown once (a new API token): read-only, selectable, with a copy button. */
export function CopyOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <div className="secret-once">
      <label style={{ flex: 1 }}>
        {label}
        <input type="text" readOnly value={value} onFocus={(e) => e.currentTarget.select()} data-testid="secret-once" />
      </label>
      <button type="button" style={{ alignSelf: 'end' }} onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
