export { createApp, type App, type AppOptions } from './app.js';
export { loadConfig, resolveConfig, ConfigError, EXIT_CONFIG } from './config/index.js';
export type { VellumConfig, SchemaDef, FieldDef } from './config/index.js';
export { migrateDatabase, createUserOnDatabase, setPasswordOnDatabase, type OperatorNewUser } from './operator-tasks.js';
export { bulkInsertDocuments, BULK_BATCH_SIZE, type BulkInsertInput } from './domain/documents/bulk-insert-documents.js';
