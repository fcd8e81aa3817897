/**
 * `npm run db:generate -- --name what_changed`: drizzle-kit writes the SQL
 * migration for the schema change for each dialect (drizzle.config.ts for
 * SQLite, drizzle.pg.config.ts for PostgreSQL), then the migrations are
 * embedded (scripts/embed-migrations.ts) so the executable carries them.
 * `--custom` works the same: one empty migration per dialect to fill in.
 */
for (const config of ["drizzle.config.ts", "drizzle.pg.config.ts"]) {
  const kit = Bun.spawnSync(["drizzle-kit", "generate", "--config", config, ...process.argv.slice(2)], { stdout: "inherit", stderr: "inherit" });
  if (kit.exitCode !== 0) process.exit(kit.exitCode ?? 1);
}
await import("./embed-migrations.ts");
export {};
