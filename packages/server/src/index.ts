export { createApp, type App, type AppOptions } from './app.js';
export { loadConfig, findConfigFile, resolveConfig, ConfigError, EXIT_CONFIG } from './config/index.js';
export { describeContentModel } from './describe-content-model.js';
export type { VellumConfig, VellumConfigInput, SchemaDef, FieldDef, BlockDef, FieldType } from './config/index.js';
export { migrateDatabase, createUserOnDatabase, setPasswordOnDatabase, type OperatorNewUser } from './operator-tasks.js';
export { runDoctor, type DoctorCheck } from './doctor.js';
export {
  backupInstance,
  restoreInstance,
  type BackupCounts,
  type BackupProgress,
  type BackupTaskOptions,
  type RestoreProgress,
  type RestoreSummary,
  type RestoreTaskOptions,
} from './backup-tasks.js';
export { MIN_PASSPHRASE_LENGTH } from './domain/backup/backup-cipher.js';
export { bulkInsertDocuments, BULK_BATCH_SIZE, type BulkInsertInput } from './domain/documents/bulk-insert-documents.js';
