/** Text for HTML: the five characters that could end an element or an attribute, escaped. */
export function escape(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole page around `main`. */
export function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font:18px/1.6 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}img{max-width:100%;height:auto}a{color:#1d4ed8}</style>
</head>
<body>
<header><a href="/">The Blog</a></header>
<main>
${main}
</main>
</body>
</html>
`;
}
