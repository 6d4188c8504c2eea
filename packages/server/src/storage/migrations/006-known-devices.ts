import type { Kysely, Migration } from 'kysely';

/**
 * Known (sign-in) devices: devices that signed in to an account before, by SHA-256 of the
 * `deviceId` sent at login, each for 30 days after its last success. They are exempt from the
 * per-account failure limit (docs/api.md, "Rate limits"); unrelated to MFA trusted devices.
 */
export function knownDevices(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('known_devices')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('known_devices_pk', ['user_id', 'device_hash'])
        .execute();
    },
  };
}
