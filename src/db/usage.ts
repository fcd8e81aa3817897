import { type Db, dialectOf } from "./client.ts";
import { pgUsageRows } from "./pg/usage.ts";
import * as lite from "./sqlite/usage.ts";

export type { TopUser } from "./sqlite/usage.ts";

/** The usage report's rows on whichever database the handle talks to (sqlite/usage.ts, pg/usage.ts). */
export function usageRows(db: Db, since: number, topUsers: number) {
  return dialectOf(db) === "postgres" ? pgUsageRows(db, since, topUsers) : lite.usageRows(db, since, topUsers);
}
