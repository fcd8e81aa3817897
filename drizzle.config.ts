import { defineConfig } from "drizzle-kit";

/** SQLite migrations (the default database). PostgreSQL's: drizzle.pg.config.ts. Both run by `npm run db:generate`. */
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/index.ts",
  out: "./src/db/migrations/sqlite",
});
