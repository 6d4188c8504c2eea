import { useEffect, useRef, useState } from 'react';

/**
 * Rich text as HTML the server's sanitizer keeps (docs/api.md, "Documents": paragraphs, headings,
 * bold, italic, links, lists): a `contenteditable` area with a small toolbar. It is its own
 * chunk, loaded when a form has a rich-text field. `document.execCommand` is deprecated but
 * still the one editing API every browser ships; a full editor (TipTap) can replace this file.
 */
export default function RichTextEditor(props: {
  id: string;
  value: string;
  onChange(v: string): void;
  disabled?: boolean;
  describedBy?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const { id, value, onChange, disabled, describedBy } = props;

  // Only a change from outside (a reload, a restore) replaces the content: typing keeps the caret.
  useEffect(() => {
    const el = ref.current;
    if (el && el.innerHTML !== value) el.innerHTML = value;
  }, [value]);

  const emit = () => {
    const html = ref.current?.innerHTML ?? '';
    onChange(html === '<br>' || html === '<p><br></p>' ? '' : html);
  };
  const run = (command: string, arg?: string) => {
    ref.current?.focus();
    document.execCommand('defaultParagraphSeparator', false, 'p');
    document.execCommand(command, false, arg);
    emit();
  };
  // The link form takes the focus, so the selection is kept and put back before the link is made.
  const [linking, setLinking] = useState<Range | null>(null);
  const [url, setUrl] = useState('');
  const startLink = () => {
    const sel = window.getSelection();
    const range = sel && sel.rangeCount > 0 && ref.current?.contains(sel.anchorNode) ? sel.getRangeAt(0).cloneRange() : null;
    setUrl('https://');
    setLinking(range ?? document.createRange());
  };
  const addLink = () => {
    const address = url.trim();
    const range = linking;
    setLinking(null);
    if (!range || !/^(https?:|mailto:|tel:)/i.test(address)) return;
    ref.current?.focus();
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    if (range.collapsed)
      run(
        'insertHTML',
        `<a href="${address.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}">${address.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)}</a>`,
      );
    else run('createLink', address);
  };

  return (
    <div className="stack">
      {!disabled && (
        <div className="editor-toolbar" role="toolbar" aria-label="Formatting">
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => run('bold')}>
            <strong>B</strong>
            <span className="visually-hidden">Bold</span>
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => run('italic')}>
            <em>I</em>
            <span className="visually-hidden">Italic</span>
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={startLink} aria-expanded={!!linking}>
            Link
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => run('insertUnorderedList')}>
            • List
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => run('insertOrderedList')}>
            1. List
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => run('formatBlock', 'h2')}>
            Heading
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => run('formatBlock', 'p')}>
            Paragraph
          </button>
        </div>
      )}
      {linking && (
        <div className="row">
          <label className="inline">
            Link address
            <input
              type="url"
              value={url}
              autoFocus
              onChange={(e) => setUrl(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addLink();
                } else if (e.key === 'Escape') setLinking(null);
              }}
            />
          </label>
          <button type="button" onClick={addLink}>
            Add link
          </button>
          <button type="button" onClick={() => setLinking(null)}>
            Cancel
          </button>
        </div>
      )}
      <div
        ref={ref}
        id={id}
        className="richtext"
        role="textbox"
        aria-multiline="true"
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy}
        aria-readonly={disabled}
        contentEditable={!disabled}
        suppressContentEditableWarning
        tabIndex={0}
        onInput={emit}
      />
    </div>
  );
}
