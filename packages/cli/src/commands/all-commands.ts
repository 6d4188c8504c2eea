import type { Command, CommandGroup } from '../command.js';
import { backupCommand, restoreCommand } from './backup.js';
import { completionCommand } from './completion.js';
import { configCommand } from './config.js';
import { devCommand } from './dev.js';
import { doctorCommand } from './doctor.js';
import { docsCommand } from './docs.js';
import { loginCommand } from './login.js';
import { logoutCommand } from './logout.js';
import { whoamiCommand } from './whoami.js';
import { mediaCommand } from './media-upload.js';
import { migrateCommand } from './migrate.js';
import { serveCommand } from './serve.js';
import { exportCommand, importCommand } from './transfer.js';
import { typesCommand } from './types.js';
import { userCommand } from './user.js';

/** Every command, in the order `vellum --help` lists them (docs/cli.md). */
export const ALL_COMMANDS: Array<Command | CommandGroup> = [
  serveCommand,
  devCommand,
  migrateCommand,
  doctorCommand,
  userCommand,
  loginCommand,
  logoutCommand,
  whoamiCommand,
  docsCommand,
  mediaCommand,
  exportCommand,
  importCommand,
  backupCommand,
  restoreCommand,
  typesCommand,
  configCommand,
  completionCommand(() => ALL_COMMANDS),
];
