/**
 * `npm run db:generate -- --name what_changed`: drizzle-kit writes the SQL
 * migration for the schema change, then the migrations are embedded
 * (scripts/embed-migrations.ts) so the executable carries them.
 */
const kit = Bun.spawnSync(["drizzle-kit", "generate", ...process.argv.slice(2)], { stdout: "inherit", stderr: "inherit" });
if (kit.exitCode !== 0) process.exit(kit.exitCode ?? 1);
await import("./embed-migrations.ts");
export {};
