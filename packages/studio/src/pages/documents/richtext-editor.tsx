import { createDocument, Editor, Extension } from '@tiptap/react';
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
 *
 * The editor is made in an effect and destroyed in its cleanup, one per mounted field, rather
 * than by `useEditor`: that hook destroys and remakes editors around React's commit, and a
 * remade one starts from the options of the first render.
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
  // The editor is made once: its callbacks and first content read the latest props from here.
  const latest = useRef({ value, onChange, disabled });
  latest.current = { value, onChange, disabled };

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
  const latestAttributes = useRef(attributes);
  latestAttributes.current = attributes;

  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  useEffect(() => {
    const made = new Editor({
      element: host.current,
      extensions: [
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
      content: latest.current.value,
      editable: !latest.current.disabled,
      editorProps: { attributes: latestAttributes.current },
      onUpdate: ({ editor: e }) => {
        // An empty text is stored as nothing, not as `<p></p>`.
        const html = e.isEmpty ? '' : e.getHTML();
        echoes.current.add(html);
        latest.current.onChange(html);
      },
    });
    setEditor(made);
    return () => {
      made.destroy();
      setEditor(null);
    };
  }, []);

  useEffect(() => {
    if (!editor) return;
    editor.setOptions({ editorProps: { attributes } });
    if (editor.isEditable !== !disabled) editor.setEditable(!disabled, false);
    if (disabled) setLinking(false);
  }, [editor, attributes, disabled]);

  // A value from outside (a reload, a restored revision, "reload their version") replaces the
  // text, unless it is the same content written differently (the server's serialisation).
  useEffect(() => {
    if (!editor) return;
    if (echoes.current.has(value)) {
      echoes.current = new Set([value]);
      return;
    }
    echoes.current.clear();
    if (!sameContent(editor, value)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  return (
    <div className="stack richtext-editor">
      {editor && !disabled && <RichTextToolbar editor={editor} linkOpen={linking} onLink={() => setLinking(!linking)} />}
      {editor && linking && <LinkForm editor={editor} onClose={() => setLinking(false)} />}
      <div ref={host} />
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
