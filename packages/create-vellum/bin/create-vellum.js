#!/usr/bin/env node
// `npm create vellum@latest my-site` (npm runs this as `create-vellum my-site`): a folder with
// package.json, a commented vellum.config.ts holding a small blog model, .gitignore and a README.
// No dependencies, nothing installed: it prints the next commands (docs/getting-started.md).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

const USAGE = 'usage: npm create vellum@latest <folder>   (or: npx create-vellum <folder>)\n';
const HERE = new URL('..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'));

/** A package name made from the folder's name (npm's rules: lower case, URL-safe, ≤ 214). */
function packageName(folder) {
  const name = basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
    .slice(0, 214);
  return name || 'vellum-site';
}

function main(argv) {
  const args = argv.filter((a) => !a.startsWith('-'));
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.length !== 1) {
    process.stderr.write(USAGE);
    return 64;
  }
  const target = resolve(args[0]);
  if (existsSync(target) && readdirSync(target).length > 0) {
    process.stderr.write(`create-vellum: ${args[0]} is not empty: choose a new folder\n`);
    return 73;
  }
  const name = packageName(target);
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      dev: 'vellum dev',
      start: 'vellum serve',
      types: 'vellum types --config vellum.config.ts -o vellum-types.ts',
    },
    dependencies: { vellum: `^${version}`, '@vellum/client': `^${version}` },
    // npm 11 runs only the install scripts a project allows: the SQLite driver and bcrypt build
    // here, and esbuild (which compiles vellum.config.ts) checks its binary.
    allowScripts: { 'better-sqlite3': true, bcrypt: true, esbuild: true },
  };
  mkdirSync(target, { recursive: true });
  const files = {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'vellum.config.ts': readFileSync(join(HERE, 'template/vellum.config.ts'), 'utf8'),
    // npm leaves .gitignore out of packages: the template's is called gitignore.
    '.gitignore': readFileSync(join(HERE, 'template/gitignore'), 'utf8'),
    'README.md': readFileSync(join(HERE, 'template/README.md'), 'utf8').replaceAll('{{name}}', name),
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(join(target, file), text);
  const relativePath = relative(process.cwd(), target) || '.';
  const cd = /[\s'"$`\\]/.test(relativePath) ? `'${relativePath.replaceAll("'", `'\\''`)}'` : relativePath;
  process.stdout.write(
    `Created ${name} in ${target}:\n` +
      Object.keys(files)
        .map((f) => `  ${f}\n`)
        .join('') +
      `\nNext:\n  cd ${cd}\n  npm install\n  npm run dev\n\nThen open http://localhost:3000/studio (the first start prints a link to create the first admin).\n`,
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
