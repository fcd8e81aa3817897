import { defineConfig } from "drizzle-kit";

/** PostgreSQL migrations, generated from the same table description as SQLite's (src/db/schema/tables.ts). */
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema/pg.ts",
  out: "./src/db/migrations/pg",
});
