import { CodeBlock } from '@tiptap/extension-code-block';
import { OrderedList } from '@tiptap/extension-list';
import { Strike } from '@tiptap/extension-strike';
import type { Extensions } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';

/**
 * Link addresses the editor makes and keeps: absolute, in one of the schemes the server's
 * sanitizer allows (docs/api.md, "Documents": http, https, mailto, tel), without spaces or
 * control characters. A stored link to anything else (a relative path) loses its link when
 * loaded: the editor writes only these (docs/studio.md, "Rich text").
 */
export function isAllowedHref(href: string): boolean {
  // eslint-disable-next-line no-control-regex -- a link with a control character is refused
  return !/[\s\x00-\x1f\x7f]/.test(href) && /^(https?:\/\/[^/?#]+|(mailto|tel):.)/i.test(href);
}

// `<ol start>`, `<ol type>` and `<code class="language-…">` are dropped by the sanitizer: the
// nodes have no attributes, so what the editor shows is what the server stores.
const PlainOrderedList = OrderedList.extend({ addAttributes: () => ({}) });
const PlainCodeBlock = CodeBlock.extend({ addAttributes: () => ({}) });
// Strike's own Ctrl+Shift+S would also save the document (the edit page's Ctrl+S).
const StrikeCtrlShiftX = Strike.extend({
  addKeyboardShortcuts() {
    return { 'Mod-Shift-x': () => this.editor.commands.toggleStrike() };
  },
});

/**
 * TipTap limited to what `sanitize-richtext.ts` keeps: paragraphs, h1–h6, bold (`strong`),
 * italic (`em`), underline, strike (`s`), inline code, code blocks (`pre > code`), block quotes,
 * lists, line breaks, rules and links (`a href` only; no `target`/`rel`/`class`). The trailing
 * empty paragraph StarterKit adds after a last list or quote is left out: it would be stored.
 */
export const richtextExtensions: Extensions = [
  StarterKit.configure({
    orderedList: false,
    codeBlock: false,
    strike: false,
    trailingNode: false,
    heading: { levels: [1, 2, 3, 4, 5, 6] },
    link: {
      openOnClick: false,
      autolink: false, // with it, links are inclusive: typing after one would extend it
      linkOnPaste: true,
      defaultProtocol: 'https',
      protocols: [],
      HTMLAttributes: { target: null, rel: null, class: null },
      isAllowedUri: (url) => isAllowedHref(url),
      shouldAutoLink: (url) => isAllowedHref(url),
    },
  }),
  PlainOrderedList,
  PlainCodeBlock,
  StrikeCtrlShiftX,
];
