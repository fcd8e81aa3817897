import { attachmentTables } from "./attachments.ts";
import { authTables } from "./auth.ts";
import { billingTables } from "./billing.ts";
import { chatTables } from "./chat.ts";
import type { Columns } from "./columns.ts";
import { councilTables } from "./council.ts";
import { securityTables } from "./security.ts";
import { sharingTables } from "./sharing.ts";
import { supportTables } from "./support.ts";
import { systemTables } from "./system.ts";
import { userTables } from "./users.ts";

/**
 * Every table of Unisson, described once and built with one dialect's
 * columns: `sqliteColumns` (index.ts, what the code imports) or
 * `postgresColumns` (pg.ts). Same table, column and index names on both.
 * The keys come in foreign-key order (a table after every table it
 * references): `unisson db copy` fills the tables in this order.
 */
export function defineTables(c: Columns) {
  const users = userTables(c);
  const chat = chatTables(c, users);
  return {
    ...users,
    ...authTables(c, users),
    ...chat,
    ...attachmentTables(c, users, chat),
    ...sharingTables(c, users, chat),
    ...billingTables(c, users),
    ...supportTables(c, users),
    ...systemTables(c),
    ...securityTables(c),
    ...councilTables(c),
  };
}

export type Tables = ReturnType<typeof defineTables>;
