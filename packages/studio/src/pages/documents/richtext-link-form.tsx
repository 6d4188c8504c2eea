import type { Editor } from '@tiptap/react';
import { useId, useState } from 'react';
import { isAllowedHref } from './richtext-extensions';
import { focused } from './richtext-toolbar';

/**
 * The link form under the toolbar (no `window.prompt`): the address of the link at the caret, or
 * `https://` for a new one. Enter adds, Escape cancels; either way the focus goes back to the
 * text, whose selection ProseMirror kept while the form had the focus.
 */
export function LinkForm({ editor, onClose }: { editor: Editor; onClose(): void }) {
  const current = (editor.getAttributes('link').href as string | undefined) ?? '';
  const [url, setUrl] = useState(current || 'https://');
  const [invalid, setInvalid] = useState(false);
  const errorId = useId();

  const close = () => {
    editor.view.focus();
    onClose();
  };
  const apply = () => {
    const href = url.trim();
    if (!isAllowedHref(href)) {
      setInvalid(true);
      return;
    }
    const chain = focused(editor).extendMarkRange('link');
    // Nothing selected and no link at the caret: the address itself becomes the link's text.
    if (editor.state.selection.empty && !current)
      chain
        .insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
        .unsetMark('link')
        .run();
    else chain.setLink({ href }).run();
    onClose();
  };
  const remove = () => {
    focused(editor).extendMarkRange('link').unsetLink().run();
    onClose();
  };

  return (
    <div className="link-form row" role="group" aria-label="Link">
      <label className="inline">
        Link address
        <input
          type="url"
          value={url}
          autoFocus
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          onChange={(e) => {
            setUrl(e.target.value);
            setInvalid(false);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              apply();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              close();
            }
          }}
        />
      </label>
      <button type="button" onClick={apply}>
        {current ? 'Save link' : 'Add link'}
      </button>
      {current && (
        <button type="button" onClick={remove}>
          Remove link
        </button>
      )}
      <button type="button" onClick={close}>
        Cancel
      </button>
      {invalid && (
        <span id={errorId} className="field-error" role="alert">
          A link starts with https://, http://, mailto: or tel:
        </span>
      )}
    </div>
  );
}
