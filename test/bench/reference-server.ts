/**
 * The minimal reference of the HTTP benchmark: bare Hono on Bun.serve
 * answering GET /me with one bun:sqlite lookup (bearer -> sha256 -> session
 * joined to its user), the least any authenticated endpoint must do.
 * Usage: bun test/bench/reference-server.ts <database file>; prints its URL.
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { Hono } from "hono";

const db = new Database(process.argv[2]!, { strict: true });
db.run("PRAGMA busy_timeout = 5000");
const lookup = db.prepare(
  "SELECT u.id, u.first_name, u.last_name, u.email, u.subscription_type FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ?",
);

const app = new Hono()
  .get("/health", (c) => c.json({ status: "ok" }))
  .get("/me", (c) => {
    const token = c.req.header("authorization")?.slice(7) ?? "";
    const row = lookup.get(createHash("sha256").update(token).digest("hex"), Date.now());
    return row ? c.json(row) : c.json({ detail: "401" }, 401);
  });

const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: app.fetch });
console.log(`http://127.0.0.1:${server.port}`);
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
