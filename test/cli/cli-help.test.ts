import { beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, runCli } from '../helpers/cli.js';

/** The commands `vellum --help` lists, as their words (`['docs', 'list']`). */
async function listedCommands(): Promise<string[][]> {
  const { stdout } = await runCli(['--help']);
  const section = stdout.split('Commands:\n')[1].split('\n\n')[0];
  return section
    .split('\n')
    .filter((l) => /^ {2}[a-z]/.test(l))
    .map((l) =>
      l
        .trim()
        .split(/\s{2,}/)[0]
        .split(' '),
    );
}

describe('vellum --help', () => {
  let commands: string[][];
  beforeAll(async () => {
    assertCliBuilt();
    commands = await listedCommands();
  });

  it('vellum alone is a usage error: the usage on stderr, nothing on stdout, exit 64', async () => {
    const run = await runCli([]);
    expect([run.code, run.stdout]).toEqual([64, '']);
    expect(run.stderr).toMatch(/^Usage: vellum <command> \[options\]\n/);
  });

  it('lists every command, groups with their subcommands', () => {
    const names = commands.map((c) => c.join(' '));
    for (const name of [
      'serve',
      'migrate',
      'types',
      'docs list',
      'docs get',
      'docs create',
      'docs update',
      'docs replace',
      'docs delete',
      'docs publish',
      'docs unpublish',
      'docs discard',
      'docs schedule',
      'docs schedules',
      'docs unschedule',
      'media upload',
      'user create',
      'user set-password',
      'config list',
      'config use',
      'config set-url',
      'config set-token',
    ])
      expect(names).toContain(name);
  });

  it('every command and subcommand answers --help (and -h) with its usage on stdout, exit 0', async () => {
    for (const words of commands) {
      for (const flag of ['--help', '-h']) {
        const run = await runCli([...words, flag]);
        expect(run.code, `${words.join(' ')} ${flag}`).toBe(0);
        expect(run.stdout).toMatch(new RegExp(`^Usage: vellum ${words.join(' ')}\\b`));
        expect(run.stderr).toBe('');
      }
    }
    for (const group of new Set(commands.filter((c) => c.length === 2).map((c) => c[0]))) {
      const run = await runCli([group, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: vellum ${group} <command>`));
    }
  });

  it('an unknown flag on any command is one line on stderr and exit 64', async () => {
    for (const words of commands) {
      const run = await runCli([...words, '--no-such-flag']);
      expect(run.code, words.join(' ')).toBe(64);
      expect(run.stderr).toBe(`vellum: unknown option --no-such-flag (see vellum ${words.join(' ')} --help)\n`);
    }
  });

  it('an unknown subcommand, or a group without one, is one line and exit 64', async () => {
    const unknown = await runCli(['docs', 'frob']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toMatch(
      /^vellum: unknown docs command "frob": expected list, get, create, update, replace, delete, publish, unpublish, discard, schedule, schedules, unschedule \(see vellum docs --help\)\n$/,
    );
    const bare = await runCli(['docs']);
    expect(bare.code).toBe(64);
    expect(bare.stderr.split('\n')).toHaveLength(2);
  });
});
