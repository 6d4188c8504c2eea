import { createDocument, EditorContent, Extension, useEditor, type Editor } from '@tiptap/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { richtextExtensions } from './richtext-extensions';
import { LinkForm } from './richtext-link-form';
import { RichTextToolbar } from './richtext-toolbar';
import './richtext-editor.css';

/**
 * Rich text as HTML the server's sanitizer keeps (docs/studio.md, "Rich text"): a TipTap editor
 * (ProseMirror) whose schema holds only what `sanitize-richtext.ts` allows, a toolbar and a link
 * form. It is its own chunk with TipTap in it, loaded when a form has a rich-text field, so the
 * first page does not carry the editor.
 */
export default function RichTextEditor(props: {
  id: string;
  value: string;
  onChange(v: string): void;
  disabled?: boolean;
  describedBy?: string;
}) {
  const { id, value, onChange, disabled, describedBy } = props;
  const [linking, setLinking] = useState(false);
  // What this editor emitted and the form has not shown back yet: a `value` among them is the
  // echo of typing, not a change from outside, and must not reset the text (and the caret).
  const echoes = useRef(new Set<string>());

  // The field's label names the text (`aria-labelledby`), its help and error describe it.
  const attributes = useMemo(
    () => ({
      id,
      class: 'richtext',
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-labelledby': `${id}-label`,
      'aria-readonly': String(!!disabled),
      ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    }),
    [id, disabled, describedBy],
  );
  const editorProps = useMemo(() => ({ attributes }), [attributes]);

  const extensions = useMemo(
    () => [
      ...richtextExtensions,
      Extension.create({
        name: 'linkShortcut',
        addKeyboardShortcuts: () => ({
          'Mod-k': () => {
            setLinking(true);
            return true;
          },
        }),
      }),
    ],
    [],
  );

  // The first value only: later ones go through the effect below (an option that changes on
  // every keystroke would make TipTap reapply the options each time).
  const [initial] = useState(value);
  const [initiallyEditable] = useState(!disabled);
  const editor: Editor | null = useEditor({
    extensions,
    content: initial,
    editable: initiallyEditable,
    editorProps,
    onUpdate: ({ editor: e }) => {
      // An empty text is stored as nothing, not as `<p></p>`.
      const html = e.isEmpty ? '' : e.getHTML();
      echoes.current.add(html);
      onChange(html); // useEditor calls the latest render's onUpdate
    },
  });

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (editor.isEditable !== !disabled) editor.setEditable(!disabled, false);
    if (disabled) setLinking(false);
  }, [editor, disabled]);

  // A value from outside (a reload, a restored revision, "reload their version") replaces the
  // text, unless it is the same content written differently (the server's serialisation). A new
  // editor (the hook destroys one React took more than a moment to mount, and makes another
  // from the first options) is brought to the current value too.
  const synced = useRef<Editor | null>(null);
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const fresh = synced.current !== editor;
    synced.current = editor;
    if (!fresh && echoes.current.has(value)) {
      echoes.current = new Set([value]);
      return;
    }
    echoes.current.clear();
    if (!sameContent(editor, value)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  // `useEditor` is typed as never null, but is null between a destroyed editor and its successor.
  if (!editor) return <p className="muted">Loading editor…</p>;
  return (
    <div className="stack richtext-editor">
      {!disabled && <RichTextToolbar editor={editor} linkOpen={linking} onLink={() => setLinking(!linking)} />}
      {linking && <LinkForm editor={editor} onClose={() => setLinking(false)} />}
      <EditorContent editor={editor} />
    </div>
  );
}

function sameContent(editor: Editor, html: string): boolean {
  try {
    return createDocument(html, editor.schema, editor.options.parseOptions).eq(editor.state.doc);
  } catch {
    return false;
  }
}
