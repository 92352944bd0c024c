import { customType, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Raw bytes; PGlite hands back a Uint8Array, postgres.js a Buffer: both become a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Racer portraits, kept in the database so the embedded and the PostgreSQL set-ups both keep
 * them (docs/decisions/0110-racer-portraits-in-the-database.md). One row per picture name (the
 * racers' `picture` value, shared by a racer's entries in every event), already resized: a square
 * thumbnail for tables and team slots, a larger square for the racer page.
 */
export const racerPortraits = pgTable("racer_portraits", {
  picture: text("picture").primaryKey(),
  /** 128 x 128 WebP. */
  thumb: bytea("thumb").notNull(),
  /** 480 x 480 WebP. */
  large: bytea("large").notNull(),
  /** Strong validator of both images (a hash of their bytes): the ETag they are served with. */
  etag: text("etag").notNull(),
  /** The file the admin gave, for the audit log and the dashboard. */
  sourceName: text("source_name").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
