import { useEffect, useRef } from 'react';

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
  const link = () => {
    const url = window.prompt('Link address (https://…)');
    if (url && /^(https?:|mailto:|tel:)/i.test(url.trim())) run('createLink', url.trim());
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
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={link}>
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
