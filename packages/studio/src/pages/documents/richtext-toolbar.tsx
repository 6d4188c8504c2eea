import { useEditorState, type ChainedCommands, type Editor } from '@tiptap/react';
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

interface Tool {
  name: string;
  /** What the button shows when it is not its name (the name is then its `aria-label`). */
  face?: ReactNode;
  /** The tooltip's words, when not the name. */
  title?: string;
  /** TipTap's shortcut, `Mod` being Ctrl, or ⌘ on Apple devices. */
  keys: string;
  /** A toggle: `aria-pressed` says whether the caret's text has it. */
  active?(e: Editor): boolean;
  run(c: ChainedCommands): ChainedCommands;
  /** Starts a new group (a gap before it). */
  group?: boolean;
}

// Named by what they show ("H2": axe wants the visible text in the name); the title
// ("Heading 2 (Ctrl+Alt+2)") becomes their description.
const heading = (level: 1 | 2 | 3): Tool => ({
  name: `H${level}`,
  title: `Heading ${level}`,
  keys: `Mod+Alt+${level}`,
  active: (e) => e.isActive('heading', { level }),
  run: (c) => c.toggleHeading({ level }),
  group: level === 1,
});

// h4–h6 are kept when loaded and reachable with Ctrl+Alt+4…6; three levels fit the toolbar.
const TOOLS: Tool[] = [
  { name: 'Bold', face: <strong>B</strong>, keys: 'Mod+B', active: (e) => e.isActive('bold'), run: (c) => c.toggleBold() },
  { name: 'Italic', face: <em>I</em>, keys: 'Mod+I', active: (e) => e.isActive('italic'), run: (c) => c.toggleItalic() },
  { name: 'Underline', face: <u>U</u>, keys: 'Mod+U', active: (e) => e.isActive('underline'), run: (c) => c.toggleUnderline() },
  { name: 'Strikethrough', face: <s>S</s>, keys: 'Mod+Shift+X', active: (e) => e.isActive('strike'), run: (c) => c.toggleStrike() },
  { name: 'Code', keys: 'Mod+E', active: (e) => e.isActive('code'), run: (c) => c.toggleCode() },
  heading(1),
  heading(2),
  heading(3),
  { name: 'Bullet list', keys: 'Mod+Shift+8', active: (e) => e.isActive('bulletList'), run: (c) => c.toggleBulletList(), group: true },
  { name: 'Numbered list', keys: 'Mod+Shift+7', active: (e) => e.isActive('orderedList'), run: (c) => c.toggleOrderedList() },
  { name: 'Quote', keys: 'Mod+Shift+B', active: (e) => e.isActive('blockquote'), run: (c) => c.toggleBlockquote() },
  { name: 'Code block', keys: 'Mod+Alt+C', active: (e) => e.isActive('codeBlock'), run: (c) => c.toggleCodeBlock() },
];

/**
 * A command chain with the focus back in the text first, at its selection. ProseMirror's
 * `view.focus()` does it at once; TipTap's `focus()` command waits for the next frame, and keys
 * typed in between land wherever the browser put the caret.
 */
export function focused(editor: Editor): ChainedCommands {
  editor.view.focus();
  return editor.chain();
}

const ariaKeys = (keys: string) => keys.replace('Mod', MAC ? 'Meta' : 'Control');
const shownKeys = (keys: string) =>
  MAC ? keys.replace('Mod+', '⌘').replace('Alt+', '⌥').replace('Shift+', '⇧') : keys.replace('Mod', 'Ctrl');

/**
 * The formatting toolbar: one Tab stop, the arrow keys (and Home/End) move between its buttons
 * (WAI-ARIA APG, "Toolbar"). Toggles carry `aria-pressed` for the text at the caret; a click
 * keeps the focus in the text (mouse) or gives it back to the text (keyboard).
 */
export function RichTextToolbar({ editor, linkOpen, onLink }: { editor: Editor; linkOpen: boolean; onLink(): void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      pressed: TOOLS.map((t) => t.active?.(e) ?? false),
      link: e.isActive('link'),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const [current, setCurrent] = useState(0);

  const buttons: Array<{
    name: string;
    face?: ReactNode;
    title?: string;
    keys: string;
    pressed?: boolean;
    expanded?: boolean;
    enabled: boolean;
    group?: boolean;
    onClick(): void;
  }> = [
    ...TOOLS.map((t, i) => ({
      name: t.name,
      face: t.face,
      title: t.title,
      keys: t.keys,
      pressed: state.pressed[i],
      enabled: true,
      group: t.group,
      onClick: () => void t.run(focused(editor)).run(),
    })),
    { name: 'Link', keys: 'Mod+K', pressed: state.link, expanded: linkOpen, enabled: true, group: true, onClick: onLink },
    { name: 'Undo', keys: 'Mod+Z', enabled: state.undo, group: true, onClick: () => void focused(editor).undo().run() },
    { name: 'Redo', keys: 'Mod+Shift+Z', enabled: state.redo, onClick: () => void focused(editor).redo().run() },
  ];
  // The Tab stop: the last button focused, or the first enabled one when that one is disabled now.
  const stop = buttons[current]?.enabled ? current : buttons.findIndex((b) => b.enabled);

  const onKeyDown = (e: KeyboardEvent) => {
    const enabled = buttons.flatMap((b, i) => (b.enabled ? [i] : []));
    const at = enabled.indexOf(stop);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: enabled.length - 1 };
    const next = moves[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const index = enabled[(next + enabled.length) % enabled.length];
    setCurrent(index);
    refs.current[index]?.focus();
  };

  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Formatting" onKeyDown={onKeyDown}>
      {buttons.map((b, i) => (
        <button
          key={b.name}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          className={b.group ? 'group-start' : undefined}
          tabIndex={i === stop ? 0 : -1}
          aria-label={b.face ? b.name : undefined}
          aria-pressed={b.pressed}
          aria-expanded={b.expanded}
          aria-keyshortcuts={ariaKeys(b.keys)}
          title={`${b.title ?? b.name} (${shownKeys(b.keys)})`}
          disabled={!b.enabled}
          onMouseDown={(e) => e.preventDefault()}
          onFocus={() => setCurrent(i)}
          onClick={b.onClick}
        >
          {b.face ?? b.name}
        </button>
      ))}
    </div>
  );
}
