/**
 * The minimal reference of the HTTP benchmarks: bare Hono on Bun.serve on the
 * product's database file.
 *  - GET /me does what any authenticated endpoint must, the way the product
 *    does it (src/auth/require-user.ts, src/auth/sessions.ts): the bearer
 *    read by the same pattern, hashed with SHA-256 (hex), the live session
 *    read by its hash (unique index), then its user by primary key, two
 *    prepared bun:sqlite statements, the user as JSON;
 *  - GET /hello is the bare framework: no middleware, no database, a word;
 *  - GET /health is what the harness polls before it starts.
 * Usage: bun test/bench/reference-server.ts <database file>; prints its URL.
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { Hono } from "hono";

const db = new Database(process.argv[2]!, { strict: true });
db.run("PRAGMA busy_timeout = 5000");
const session = db.prepare<{ user_id: number }, [string, number]>(
  "SELECT user_id FROM sessions WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?",
);
const user = db.prepare("SELECT id, first_name, last_name, email, subscription_type FROM users WHERE id = ?");

const app = new Hono()
  .get("/hello", (c) => c.text("hello"))
  .get("/health", (c) => c.json({ status: "ok" }))
  .get("/me", (c) => {
    const token = c.req.header("authorization")?.match(/^Bearer\s+(\S{16,512})$/i)?.[1];
    const found = token ? session.get(createHash("sha256").update(token).digest("hex"), Date.now()) : null;
    const row = found ? user.get(found.user_id) : null;
    return row ? c.json(row) : c.json({ detail: "401" }, 401);
  });

const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: app.fetch });
console.log(`http://127.0.0.1:${server.port}`);
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
