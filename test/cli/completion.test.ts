import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COMMANDS } from '../../packages/cli/src/commands/all-commands.js';
import { assertCliBuilt, runCli } from '../helpers/cli.js';

/**
 * `vellum completion bash|zsh` (docs/cli.md, "Shell completion"): the scripts run in the real
 * shells (CI installs zsh), asked what they complete after the words a user typed.
 */
let dir: string;
let bash: string;
let zsh: string;

beforeAll(async () => {
  assertCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'vellum-completion-'));
  writeFileSync(join(dir, 'site.ndjson'), '');
  writeFileSync(join(dir, 'notes.txt'), '');
  const [b, z] = await Promise.all([runCli(['completion', 'bash']), runCli(['completion', 'zsh'])]);
  expect([b.code, z.code]).toEqual([0, 0]);
  bash = join(dir, 'vellum.bash');
  zsh = join(dir, '_vellum');
  writeFileSync(bash, b.stdout);
  writeFileSync(zsh, z.stdout);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash offers after `words` (the last one being completed), one per line. */
function bashOffers(...words: string[]): string[] {
  const script = `source ${JSON.stringify(bash)}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _vellum; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean).sort();
}

/**
 * What the zsh function hands the completion system after `words`: `_describe` and `_arguments`
 * replaced by stand-ins that print their candidates (the real ones need an interactive shell).
 */
function zshAsks(...words: string[]): string[] {
  const script = [
    `_describe() { shift 3; print -rl -- "\${(@P)1}" }`,
    `_arguments() { shift; print -rl -- "$@" }`,
    `compdef() { : }`,
    `source ${JSON.stringify(zsh)}`,
    `words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}`,
    `_vellum`,
  ].join('\n');
  return execFileSync('zsh', ['-f', '-c', script], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('vellum completion', () => {
  it('bash completes every command and subcommand the CLI has, and nothing else', () => {
    const names = ALL_COMMANDS.map((c) => c.name);
    expect(bashOffers('vellum', '')).toEqual([...names, '--help', '--version'].sort());
    expect(bashOffers('vellum', 'do')).toEqual(['docs', 'doctor']);
    expect(bashOffers('vellum', 'doc')).toEqual(['docs', 'doctor']);
    expect(bashOffers('vellum', 'doct')).toEqual(['doctor']);
    for (const group of ALL_COMMANDS.filter((c) => 'subcommands' in c))
      expect(bashOffers('vellum', group.name, '')).toEqual(group.subcommands.map((s) => s.name).sort());
  });

  it('bash completes options, the values of options that take a few, and file names where a command takes files', () => {
    expect(bashOffers('vellum', 'docs', 'list', 'post', '--fo')).toEqual(['--format']);
    expect(bashOffers('vellum', 'docs', 'list', 'post', '--format', '')).toEqual(['json', 'ndjson', 'table']);
    expect(bashOffers('vellum', 'user', 'create', '--role', 'w')).toEqual(['writer']);
    expect(bashOffers('vellum', 'export', '--')).toEqual(
      ['--url', '--token', '--profile', '--types', '--out', '-o', '--media', '--json', '--help'].filter((o) => o.startsWith('--')).sort(),
    );
    expect(bashOffers('vellum', 'import', 's')).toEqual(['site.ndjson']);
    expect(bashOffers('vellum', 'export', '-o', 'si')).toEqual(['site.ndjson']);
    // A value that is not a path is left to the user: no file names offered for --limit.
    expect(bashOffers('vellum', 'docs', 'list', 'post', '--limit', '')).toEqual([]);
  });

  it('zsh is valid and offers the commands with their summaries, then each command’s options', () => {
    execFileSync('zsh', ['-n', zsh]);
    const commands = zshAsks('vellum', '');
    expect(commands.map((c) => c.split(':')[0])).toEqual(ALL_COMMANDS.map((c) => c.name));
    expect(commands).toContain('completion:Print a shell completion script for bash or zsh');
    expect(zshAsks('vellum', 'docs', '').map((c) => c.split(':')[0])).toContain('schedules');
    const list = zshAsks('vellum', 'docs', 'list', '--f');
    expect(list).toContain('--format[table, json or ndjson (default\\: table on a terminal, json otherwise)]:F:(table json ndjson)');
    expect(list).toContain('--json[print JSON (the same as --format json)]');
    const imports = zshAsks('vellum', 'import', '');
    expect(imports.at(-1)).toBe('*:file:_files');
  });

  it('an unknown shell is a usage error', async () => {
    const run = await runCli(['completion', 'fish']);
    expect([run.code, run.stderr]).toEqual([64, 'vellum: completion: unknown shell "fish": expected bash or zsh\n']);
  });
});
