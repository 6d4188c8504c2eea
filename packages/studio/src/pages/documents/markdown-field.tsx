import { useState, type ReactNode } from 'react';

/** Markdown text with a preview (its own chunk, loaded when a form has a markdown field). */
export default function MarkdownField(props: {
  id: string;
  value: string;
  onChange(v: string): void;
  disabled?: boolean;
  describedBy?: string;
}) {
  const [preview, setPreview] = useState(false);
  return (
    <div className="stack">
      <div className="row">
        <button type="button" aria-pressed={preview} onClick={() => setPreview(!preview)}>
          {preview ? 'Edit' : 'Preview'}
        </button>
      </div>
      {preview ? (
        <div className="md-preview" aria-label="Markdown preview" role="region">
          {renderMarkdown(props.value)}
        </div>
      ) : (
        <textarea
          id={props.id}
          rows={8}
          className="mono"
          value={props.value}
          disabled={props.disabled}
          aria-describedby={props.describedBy}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </div>
  );
}

/**
 * The common part of Markdown (headings, paragraphs, lists, code blocks, bold, italic, inline
 * code, links) rendered as React elements, never as HTML strings: the preview cannot run what
 * the text holds. Links keep only http(s) and mailto addresses.
 */
export function renderMarkdown(source: string): ReactNode[] {
  const out: ReactNode[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith('```')) {
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) code.push(lines[i]);
      i++;
      out.push(
        <pre key={out.length}>
          <code>{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const Tag = `h${Math.min(6, heading[1].length + 1)}` as 'h2';
      out.push(<Tag key={out.length}>{inline(heading[2])}</Tag>);
      i++;
      continue;
    }
    const bullet = /^\s*([-*+]|\d+\.)\s+/;
    if (bullet.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: ReactNode[] = [];
      for (; i < lines.length && bullet.test(lines[i]); i++) items.push(<li key={items.length}>{inline(lines[i].replace(bullet, ''))}</li>);
      out.push(ordered ? <ol key={out.length}>{items}</ol> : <ul key={out.length}>{items}</ul>);
      continue;
    }
    if (!line.trim()) {
      i++;
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i].trim() && !bullet.test(lines[i]) && !/^(#{1,6}\s|```)/.test(lines[i]); i++) para.push(lines[i]);
    out.push(<p key={out.length}>{inline(para.join(' '))}</p>);
  }
  return out;
}

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /(\*\*([^*]+)\*\*|__([^_]+)__|\*([^*]+)\*|_([^_]+)_|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\))/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const k = out.length;
    if (m[2] ?? m[3]) out.push(<strong key={k}>{inline(m[2] ?? m[3])}</strong>);
    else if (m[4] ?? m[5]) out.push(<em key={k}>{inline(m[4] ?? m[5])}</em>);
    else if (m[6]) out.push(<code key={k}>{m[6]}</code>);
    else if (m[7])
      out.push(
        /^(https?:|mailto:)/i.test(m[8]) ? (
          <a key={k} href={m[8]}>
            {m[7]}
          </a>
        ) : (
          m[7]
        ),
      );
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
