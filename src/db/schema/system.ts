import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";

/**
 * The one server allowed on this database (src/system/lease.ts): one row,
 * id 1, renewed by the holder's heartbeat. A start finds it and either takes
 * it (free, expired, or its holder is a dead process of this host) or stops.
 */
export const serverLease = sqliteTable("server_lease", {
  id: integer("id").primaryKey(),
  holder: text("holder").notNull(),
  hostname: text("hostname").notNull(),
  pid: integer("pid").notNull(),
  url: text("url"),
  acquiredAt: timestamp("acquired_at").notNull(),
  heartbeatAt: timestamp("heartbeat_at").notNull(),
  expiresAt: timestamp("expires_at").notNull(),
});
