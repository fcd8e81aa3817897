import type { Columns } from "./columns.ts";

export function systemTables(c: Columns) {
  /**
   * The one server allowed on this database (src/system/lease.ts): one row,
   * id 1, renewed by the holder's heartbeat. A start finds it and either takes
   * it (free, expired, or its holder is a dead process of this host) or stops.
   */
  const serverLease = c.table("server_lease", {
    id: c.fixedId(),
    holder: c.text("holder").notNull(),
    hostname: c.text("hostname").notNull(),
    pid: c.int("pid").notNull(),
    url: c.text("url"),
    acquiredAt: c.timestamp("acquired_at").notNull(),
    heartbeatAt: c.timestamp("heartbeat_at").notNull(),
    expiresAt: c.timestamp("expires_at").notNull(),
  });
  return { serverLease };
}
