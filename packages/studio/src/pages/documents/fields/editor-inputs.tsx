import { lazy, Suspense, type ComponentType } from 'react';
import { orUndefined, text, type FieldProps } from './field-props';
import { FieldWrapper } from './field-wrapper';

// Each editor is its own chunk, loaded when a form has such a field (docs/studio.md, "Building").
const RichTextEditor = lazy(() => import('../richtext-editor'));
const MarkdownField = lazy(() => import('../markdown-field'));

/** The props both editors take. */
type EditorProps = { id: string; value: string; onChange(v: string): void; disabled?: boolean; describedBy?: string };

function EditorInput({ p, Editor }: { p: FieldProps; Editor: ComponentType<EditorProps> }) {
  return (
    <FieldWrapper p={p}>
      {(control) => (
        <Suspense fallback={<p className="muted">Loading editor…</p>}>
          <Editor
            id={control.id}
            value={text(p.value)}
            onChange={(v) => p.onChange(orUndefined(v))}
            disabled={p.disabled}
            describedBy={control['aria-describedby']}
          />
        </Suspense>
      )}
    </FieldWrapper>
  );
}

/** `markdown`: text with a preview. */
export const MarkdownInput = (p: FieldProps) => <EditorInput p={p} Editor={MarkdownField} />;

/** `richtext`: HTML the server's sanitizer keeps. */
export const RichTextInput = (p: FieldProps) => <EditorInput p={p} Editor={RichTextEditor} />;
