import { CliError, EXIT, type Command, type CommandGroup, type OptionDefs } from '../command.js';

/**
 * `vellum completion bash|zsh`: a completion script made from the command table itself (given as
 * a function: the table lists this command too), so it
 * never names a command or option the CLI does not have (docs/cli.md, "Shell completion").
 * Commands, subcommands, options, the values of options that take one of a few (`--format`),
 * and file names where a command takes files.
 */
export const completionCommand = (commands: () => ReadonlyArray<Command | CommandGroup>): Command => ({
  name: 'completion',
  summary: 'Print a shell completion script for bash or zsh',
  synopsis: '<bash | zsh>',
  options: {},
  args: { min: 1, max: 1 },
  notes:
    'bash: add `source <(vellum completion bash)` to ~/.bashrc.\n' +
    'zsh: `vellum completion zsh > "${fpath[1]}/_vellum"`, then start a new shell (compinit loads it).',
  async run({ args: [shell] }) {
    const table = commandTable(commands());
    if (shell === 'bash') process.stdout.write(bashScript(table));
    else if (shell === 'zsh') process.stdout.write(zshScript(table));
    else throw new CliError(`completion: unknown shell "${shell}": expected bash or zsh`, EXIT.usage);
    return EXIT.ok;
  },
});

interface Leaf {
  summary: string;
  options: OptionDefs;
  /** Whether its arguments are file names (`vellum import FILE`, `vellum media upload FILES…`). */
  files: boolean;
}

interface Entry extends Leaf {
  name: string;
  subcommands?: Array<Leaf & { name: string }>;
}

const FILE_SYNOPSIS = /file|director/i;

function commandTable(all: ReadonlyArray<Command | CommandGroup>): Entry[] {
  const leaf = (c: Command): Leaf & { name: string } => ({
    name: c.name,
    summary: c.summary,
    options: { ...c.options, help: { type: 'boolean', help: 'show this help' } },
    files: FILE_SYNOPSIS.test(c.synopsis),
  });
  return all.map((c) =>
    'subcommands' in c ? { name: c.name, summary: c.summary, options: {}, files: false, subcommands: c.subcommands.map(leaf) } : leaf(c),
  );
}

const words = (items: readonly string[]) => items.join(' ');
const optionWords = (options: OptionDefs) =>
  words(Object.entries(options).flatMap(([n, o]) => [`--${n}`, ...(o.short ? [`-${o.short}`] : [])]));

/** `case` arms giving `opts`, `takes` (options with a value), `choices` and `files` for each command. */
function bashLeaf(pattern: string, l: Leaf, indent: string): string {
  const takes = Object.entries(l.options).filter(([, o]) => o.type === 'string');
  const flagsOf = (list: typeof takes) => list.flatMap(([n, o]) => [`--${n}`, ...(o.short ? [`-${o.short}`] : [])]).join('|');
  const arm = (list: typeof takes, reply: string) => (list.length > 0 ? `${indent}    ${flagsOf(list)}) ${reply}; return ;;\n` : '');
  const choices = takes
    .filter(([, o]) => o.choices)
    .map(([n, o]) => `${indent}    --${n}) COMPREPLY=($(compgen -W "${words(o.choices!)}" -- "$cur")); return ;;\n`)
    .join('');
  return (
    `${indent}${pattern})\n` +
    `${indent}  case "$prev" in\n${choices}` +
    arm(
      takes.filter(([, o]) => !o.choices && takesPath(o.value)),
      'COMPREPLY=($(compgen -f -- "$cur"))',
    ) +
    arm(
      takes.filter(([, o]) => !o.choices && !takesPath(o.value)),
      'COMPREPLY=()',
    ) +
    `${indent}  esac\n` +
    `${indent}  opts="${optionWords(l.options)}"; files=${l.files ? 1 : 0} ;;\n`
  );
}

function bashScript(table: Entry[]): string {
  const arms = table
    .map((e) => {
      if (!e.subcommands) return bashLeaf(e.name, e, '    ');
      const subs = e.subcommands.map((s) => bashLeaf(s.name, s, '        ')).join('');
      return (
        `    ${e.name})\n` +
        `      if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "${words(e.subcommands.map((s) => s.name))}" -- "$cur")); return; fi\n` +
        `      case "\${COMP_WORDS[2]}" in\n${subs}        *) return ;;\n      esac ;;\n`
      );
    })
    .join('');
  return `# vellum completion for bash: source <(vellum completion bash)
_vellum() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" opts="" files=0
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${words(table.map((e) => e.name))} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${arms}    *) return ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [ "$files" -eq 1 ]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -o bashdefault -F _vellum vellum
`;
}

/** Text inside zsh single quotes: `'` closed, escaped and reopened. */
const zshQuoted = (s: string) => s.replace(/'/g, `'\\''`);
/** Text of an `_arguments` spec (`[]:\` escaped) or of a `_describe` item (`:` escaped). */
const zshText = (s: string) => zshQuoted(s.replace(/([[\]:\\])/g, '\\$1'));
const zshItem = (s: string) => zshQuoted(s.replace(/:/g, '\\:'));
/** Values that are paths: completed with file names; other values with nothing. */
const takesPath = (value: string | undefined) => value === 'FILE' || value === 'PATH';

function zshSpecs(l: Leaf): string {
  const specs = Object.entries(l.options).map(([n, o]) => {
    const names = o.short ? `'(-${o.short} --${n})'{-${o.short},--${n}}'` : `'--${n}`;
    const action = o.choices ? `(${words(o.choices)})` : takesPath(o.value) ? '_files' : ' ';
    const value = o.type !== 'string' ? '' : `:${zshText(o.value ?? n)}:${action}`;
    return `${names}[${zshText(o.help)}]${value}'`;
  });
  if (l.files) specs.push(`'*:file:_files'`);
  return specs.join(' \\\n        ');
}

const zshDescribe = (name: string, items: ReadonlyArray<{ name: string; summary: string }>) =>
  `local -a ${name}=(${items.map((i) => `'${i.name}:${zshItem(i.summary)}'`).join(' ')})`;

function zshScript(table: Entry[]): string {
  const arms = table
    .map((e) => {
      if (!e.subcommands) return `    ${e.name})\n      shift words; (( CURRENT-- ))\n      _arguments -s ${zshSpecs(e)} ;;\n`;
      const subs = e.subcommands
        .map((s) => `        ${s.name})\n          shift 2 words; (( CURRENT -= 2 ))\n          _arguments -s ${zshSpecs(s)} ;;\n`)
        .join('');
      return (
        `    ${e.name})\n` +
        `      if (( CURRENT == 3 )); then\n        ${zshDescribe('subcommands', e.subcommands)}\n` +
        `        _describe -t commands 'vellum ${e.name} command' subcommands; return\n      fi\n` +
        `      case $words[3] in\n${subs}      esac ;;\n`
      );
    })
    .join('');
  return `#compdef vellum
# vellum completion for zsh: vellum completion zsh > "\${fpath[1]}/_vellum"
_vellum() {
  if (( CURRENT == 2 )); then
    ${zshDescribe('commands', table)}
    _describe -t commands 'vellum command' commands; return
  fi
  case $words[2] in
${arms}  esac
}
if [ "$funcstack[1]" = "_vellum" ]; then _vellum "$@"; else compdef _vellum vellum; fi
`;
}
