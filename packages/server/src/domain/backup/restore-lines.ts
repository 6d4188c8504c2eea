import type { LocalesConfig } from '../../config/locales-section.js';
import { errors } from '../../errors.js';
import { insertBackupRows, type BackupRow } from '../../storage/backup/backup-rows.js';
import { SEARCH_TEXT_KEY, SEARCHED_TABLES } from '../../storage/backup/restore-statements.js';
import { backupTable, type BackupTable } from '../../storage/backup/backup-tables.js';
import type { Conn } from '../../storage/connection.js';
import { searchText } from '../documents/search-text.js';
import type { SecretBox } from '../mfa/secret-box.js';
import type { SchemaRegistry } from '../schemas/schema-registry.js';
import type { BackupCipher } from './backup-cipher.js';
import type { BackupCounts, BackupHeader, BackupLine, FileLine } from './backup-format.js';
import { mediaFiles, rowKey, sealedLabel, sealSecrets, withoutSecret } from './backup-rules.js';
import type { RestoreFiles } from './restore-files.js';

export type RestoreProgress =
  { phase: 'rows'; table: string; done: number; total: number } | { phase: 'files'; done: number; total: number; bytes: number };

export interface RestoreContext {
  secretBox: SecretBox;
  schemas: SchemaRegistry;
  locales?: LocalesConfig;
  cipher?: BackupCipher;
  files: RestoreFiles;
  /** The restore's time: when webhooks restored without their secret were turned off. */
  now: string;
  onProgress?: (progress: RestoreProgress) => void;
}

/**
 * The lines after a backup's header, applied one by one inside the restore's transaction, each
 * checked against the header and the tables of backup-tables.ts before anything is written (a
 * file is data from outside: its table names, columns and values are not trusted).
 */
export class RestoreLines {
  private readonly rows: Record<string, number> = {};
  private readonly secrets = new Map<string, Map<string, BackupRow>>();
  /** Files the restored media rows name, by key: a file line for any other key is refused. */
  private readonly expected = new Map<string, boolean>();
  private sealed = 0;
  private ended?: BackupCounts;
  private webhooksDisabled = 0;
  private totpWithoutSecret = 0;

  constructor(
    private readonly conn: Conn,
    private readonly header: BackupHeader,
    private readonly context: RestoreContext,
  ) {}

  async apply(text: string, lineNumber: number): Promise<void> {
    let line: BackupLine;
    try {
      line = JSON.parse(text) as BackupLine;
    } catch {
      throw errors.invalidInput(`Line ${lineNumber} of the backup is not JSON`);
    }
    if (this.ended) throw errors.invalidInput(`Line ${lineNumber} of the backup comes after its end line`);
    switch (line?.kind) {
      case 'rows':
        return this.applyRows(this.table(line.table, lineNumber), line.rows, lineNumber);
      case 'sealed':
        return this.applySealed(this.table(line.table, lineNumber), line, lineNumber);
      case 'file':
        return this.startFile(line, lineNumber);
      case 'file-data':
        return this.context.files.data(String(line.data));
      case 'file-end':
        await this.context.files.end(String(line.sha256));
        this.context.onProgress?.({
          phase: 'files',
          done: this.context.files.written,
          total: this.expected.size,
          bytes: this.context.files.bytes,
        });
        return;
      case 'end':
        this.ended = line.counts;
        return;
      default:
        throw errors.invalidInput(`Line ${lineNumber} of the backup has an unknown kind`);
    }
  }

  /** Checks the end line against what was read: a file cut short or changed is refused. */
  finish(): {
    tables: Record<string, number>;
    files: number;
    keptFiles: number;
    bytes: number;
    webhooksDisabled: number;
    totpWithoutSecret: number;
    missingFiles: string[];
  } {
    const end = this.ended;
    if (!end || this.context.files.inFile) throw errors.invalidInput('The backup is cut short: it has no end line');
    for (const [name, n] of Object.entries(end.tables ?? {})) {
      const table = backupTable(name);
      // Sealed tables left out (--without-secrets) were read, not written.
      if (table?.travel === 'sealed' && !this.context.cipher) continue;
      if ((this.rows[name] ?? 0) !== n)
        throw errors.invalidInput(`The backup is damaged: its end line counts ${n} rows of ${name}, the file has ${this.rows[name] ?? 0}`);
    }
    if (end.files !== this.context.files.written)
      throw errors.invalidInput(
        `The backup is damaged: its end line counts ${end.files} files, the file has ${this.context.files.written}`,
      );
    const { files } = this.context;
    return {
      tables: this.rows,
      files: files.written,
      keptFiles: files.kept,
      bytes: files.bytes,
      webhooksDisabled: this.webhooksDisabled,
      totpWithoutSecret: this.totpWithoutSecret,
      missingFiles: Array.isArray(end.missingFiles) ? end.missingFiles.map(String) : [],
    };
  }

  private table(name: unknown, lineNumber: number): BackupTable {
    const table = typeof name === 'string' && name in this.header.contents.tables ? backupTable(name) : undefined;
    if (!table) throw errors.invalidInput(`Line ${lineNumber} of the backup names a table it does not hold`);
    return table;
  }

  private async applyRows(table: BackupTable, raw: unknown, lineNumber: number): Promise<void> {
    if (table.travel === 'sealed') throw errors.invalidInput(`Line ${lineNumber}: ${table.name} rows travel encrypted only`);
    const rows = this.checkedRows(table, raw, lineNumber);
    if (table.travel === 'split') this.mergeSecrets(table, rows);
    await this.insert(table, rows);
  }

  private async applySealed(table: BackupTable, line: Extract<BackupLine, { kind: 'sealed' }>, lineNumber: number): Promise<void> {
    if (table.travel === 'plain') throw errors.invalidInput(`Line ${lineNumber}: ${table.name} has no secrets`);
    const label = sealedLabel(table.name, this.sealed++);
    const { cipher } = this.context;
    // Restored --without-secrets: a sealed table is left out, a split table's rows follow without.
    if (!cipher) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(cipher.open(label, line));
    } catch (err) {
      throw err instanceof SyntaxError ? errors.invalidInput(`Line ${lineNumber}: its encrypted rows are not JSON`) : err;
    }
    const rows = this.checkedRows(table, parsed, lineNumber, table.travel === 'split');
    if (table.travel === 'sealed')
      return this.insert(
        table,
        rows.map((row) => sealSecrets(table, row, this.context.secretBox)),
      );
    const pending = this.secrets.get(table.name) ?? new Map<string, BackupRow>();
    for (const row of rows) pending.set(rowKey(table, row), row);
    this.secrets.set(table.name, pending);
  }

  /** A split table's rows take the secrets the sealed line before them held, or the rule for a row without. */
  private mergeSecrets(table: BackupTable, rows: BackupRow[]): void {
    const pending = this.secrets.get(table.name);
    for (const row of rows) {
      const key = rowKey(table, row);
      const secret = pending?.get(key);
      if (secret) {
        pending!.delete(key);
        for (const c of table.secretColumns ?? []) row[c] = secret[c];
        sealSecrets(table, row, this.context.secretBox);
        continue;
      }
      const left = withoutSecret(table, row, this.context.secretBox, this.context.now);
      if (left === 'webhook-disabled') this.webhooksDisabled++;
      if (left === 'totp-without-secret') this.totpWithoutSecret++;
    }
  }

  private async insert(table: BackupTable, rows: BackupRow[]): Promise<void> {
    if (SEARCHED_TABLES.includes(table.name)) this.addSearchText(rows);
    await insertBackupRows(this.conn, table, rows);
    if (table.name === 'media') for (const row of rows) for (const f of mediaFiles(row)) this.expected.set(f.key, false);
    this.rows[table.name] = (this.rows[table.name] ?? 0) + rows.length;
    this.context.onProgress?.({
      phase: 'rows',
      table: table.name,
      done: this.rows[table.name],
      total: this.header.contents.tables[table.name] ?? 0,
    });
  }

  /** Search text is the content model's reading of the data, rebuilt for the engine restored to, and written with the rows. */
  private addSearchText(rows: BackupRow[]): void {
    for (const row of rows) {
      const schema = this.context.schemas.get(String(row.type));
      // A type the configuration no longer has keeps its rows, unsearched, as it would in place.
      if (schema && row.data && typeof row.data === 'object') {
        row[SEARCH_TEXT_KEY] = searchText(schema, row.data as Record<string, unknown>, this.context.locales);
      }
    }
  }

  private startFile(line: FileLine, lineNumber: number): Promise<void> {
    const known = typeof line.key === 'string' ? this.expected.get(line.key) : undefined;
    if (known === undefined) throw errors.invalidInput(`Line ${lineNumber}: the file ${String(line.key)} belongs to no restored media`);
    if (known) throw errors.invalidInput(`Line ${lineNumber}: the file ${line.key} comes twice`);
    if (!Number.isSafeInteger(line.size) || line.size < 0 || typeof line.contentType !== 'string') {
      throw errors.invalidInput(`Line ${lineNumber}: the file ${line.key} has no valid size or content type`);
    }
    this.expected.set(line.key, true);
    return this.context.files.start(line);
  }

  /**
   * The rows as objects of the table's columns: scalars, JSON values only in JSON columns. Any
   * other column is refused; a `split` table's secrets bring only its key and secret columns.
   */
  private checkedRows(table: BackupTable, raw: unknown, lineNumber: number, secretsOnly = false): BackupRow[] {
    if (!Array.isArray(raw)) throw errors.invalidInput(`Line ${lineNumber}: rows must be a list`);
    const columns = new Set<string>(secretsOnly ? [...table.key, ...(table.secretColumns ?? [])] : table.columns);
    const json = new Set<string>(table.json ?? []);
    for (const row of raw) {
      if (typeof row !== 'object' || row === null || Array.isArray(row))
        throw errors.invalidInput(`Line ${lineNumber}: a row of ${table.name} is not an object`);
      for (const [column, value] of Object.entries(row as BackupRow)) {
        if (!columns.has(column)) throw errors.invalidInput(`Line ${lineNumber}: ${table.name} has no column ${column}`);
        const scalar = value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
        if (!scalar && !json.has(column))
          throw errors.invalidInput(`Line ${lineNumber}: ${table.name}.${column} must be a string, a number or null`);
      }
    }
    return raw as BackupRow[];
  }
}
