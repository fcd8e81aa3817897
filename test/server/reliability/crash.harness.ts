/**
 * Kill -9 under write load, shared by the in-suite test (a few cycles) and
 * the benchmark script (20 cycles): the compiled executable serves a data
 * folder while clients register, chat (with final processing) and pay; at a
 * random moment the process is SIGKILLed, restarted on the same folder, and
 * the database is checked against every answer the clients received.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { type FakeProviders, startFakeProviders } from "../../fakes/ai/index.ts";
import { type FakeStripe, startFakeStripe } from "../../fakes/stripe/server.ts";
import { ensureBinary, freePort, tempDir } from "../../helpers/binary.ts";

export type Ledger = {
  /** E-mails whose registration answered 2xx. */
  registered: Set<string>;
  /** Conversation id -> the user message texts whose POST /chat answered 2xx. */
  chats: Map<number, string[]>;
  /** Conversation ids whose POST /process answered 2xx. */
  processed: Set<number>;
  /** Checkout session id -> buyer e-mail and token, for sessions the fake Stripe marked paid. */
  paid: Map<string, { email: string; token: string }>;
  /** Checkout sessions whose status poll answered 2xx with payment_status "paid". */
  confirmed: Set<string>;
};

export type CrashRig = Awaited<ReturnType<typeof startCrashRig>>;

export async function startCrashRig() {
  const ai: FakeProviders = startFakeProviders();
  // A little latency so kills land inside final processings too.
  ai.control.setAll({ latencyMs: 30 });
  const stripe: FakeStripe = await startFakeStripe();
  const dir = tempDir("unisson-crash-");
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  stripe.setWebhookUrl(`${url}/api/stripe/webhook`);
  const env = {
    PATH: process.env.PATH ?? "",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dir.path,
    PUBLIC_URL: "http://localhost:3000",
    LOG_LEVEL: "warn",
    AI_TIMEOUT_MS: "5000",
    ...ai.env,
    ...stripe.env,
  };
  const ledger: Ledger = { registered: new Set(), chats: new Map(), processed: new Set(), paid: new Map(), confirmed: new Set() };
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  let seq = 0;

  async function start() {
    proc = Bun.spawn([ensureBinary(), "serve"], { cwd: dir.path, env, stdout: "ignore", stderr: "ignore" });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) return;
      } catch {
        // not yet
      }
      await Bun.sleep(25);
    }
    throw new Error("server did not come back");
  }

  async function call(method: string, path: string, json?: unknown, token?: string) {
    const headers: Record<string, string> = { "x-forwarded-for": `10.${seq % 250}.${Math.floor(seq / 250) % 250}.7` };
    if (json !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${url}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as any };
  }

  async function register(): Promise<{ email: string; token: string }> {
    const email = `crash-${++seq}-${crypto.randomUUID().slice(0, 8)}@example.fr`;
    const res = await call("POST", "/api/auth/register", { email, password: "Girafe-Secret-123", first_name: "Éva", last_name: `N${seq}` });
    if (res.status !== 200) throw new Error(`register ${res.status}`);
    ledger.registered.add(email);
    return { email, token: res.body.token };
  }

  /** One client asking questions until the server dies. */
  async function chatter() {
    for (;;) {
      const { token } = await register();
      for (let q = 0; q < 2; q++) {
        const message = `Question ${q} de ${token.slice(0, 6)}`;
        const chat = await call("POST", "/api/unisson/chat", { message }, token);
        if (chat.status !== 200) break;
        ledger.chats.set(chat.body.conversation_id, [...(ledger.chats.get(chat.body.conversation_id) ?? []), message]);
        const processed = await call("POST", "/api/unisson/process", { conversation_id: chat.body.conversation_id }, token);
        if (processed.status === 200) ledger.processed.add(chat.body.conversation_id);
      }
    }
  }

  /** One client buying Basic until the server dies: checkout, pay (webhook delivered), poll. */
  async function buyer() {
    for (;;) {
      const { email, token } = await register();
      const checkout = await call(
        "POST",
        "/api/stripe/create-payment-intent",
        { product_type: "subscription_basic", is_annual: false, origin_url: "http://localhost:3000" },
        token,
      );
      if (checkout.status !== 200) continue;
      const id = String(checkout.body.checkout_url).split("/").pop()!;
      // The fake marks the session paid before it delivers the webhook, so the ledger comes first.
      ledger.paid.set(id, { email, token });
      await stripe.pay(id);
      const status = await call("GET", `/api/stripe/checkout-status/${id}`, undefined, token);
      if (status.status === 200 && status.body.payment_status === "paid") ledger.confirmed.add(id);
    }
  }

  /**
   * Load until this cycle has written something (a slow, shared CI box may
   * need longer than a quiet one), then for a random 0-1200 ms more, then
   * SIGKILL; resolves when the process is gone and the clients have stopped.
   */
  async function loadThenKill() {
    const clients = [chatter(), chatter(), chatter(), buyer(), buyer()].map((p) => p.catch(() => undefined));
    const answers = ledger.processed.size;
    const payments = ledger.paid.size;
    const until = Date.now() + 20_000;
    while ((ledger.processed.size === answers || ledger.paid.size === payments) && Date.now() < until) await Bun.sleep(20);
    await Bun.sleep(Math.floor(Math.random() * 1200));
    proc!.kill("SIGKILL");
    await proc!.exited;
    await Promise.all(clients);
  }

  /** Stripe's retries after the outage: every paid session's event again, and the buyer's poll. */
  async function settlePayments() {
    for (const [id, buyerOf] of ledger.paid) {
      await stripe.pay(id);
      const status = await call("GET", `/api/stripe/checkout-status/${id}`, undefined, buyerOf.token);
      if (status.status === 200 && status.body.payment_status === "paid") ledger.confirmed.add(id);
    }
  }

  async function stop() {
    proc?.kill("SIGKILL");
    await proc?.exited;
    await ai.stop();
    stripe.stop();
    dir.cleanup();
  }

  return { ledger, start, loadThenKill, settlePayments, stop, dbFile: join(dir.path, "unisson.db") };
}

/** Everything the ledger promises, read from the database file (a second connection, as the CLI would). */
export function checkDatabase(dbFile: string, ledger: Ledger): string[] {
  const db = new Database(dbFile, { strict: true });
  db.run("PRAGMA busy_timeout = 5000");
  const problems: string[] = [];
  try {
    const integrity = db.query("PRAGMA integrity_check").get() as { integrity_check: string };
    if (integrity.integrity_check !== "ok") problems.push(`integrity_check: ${integrity.integrity_check}`);
    const hasUser = db.prepare("SELECT 1 FROM users WHERE email = ?");
    for (const email of ledger.registered) if (!hasUser.get(email)) problems.push(`registered but missing: ${email}`);
    const messages = db.prepare("SELECT content FROM messages WHERE conversation_id = ? AND sender = 'user'");
    for (const [id, texts] of ledger.chats) {
      const stored = (messages.all(id) as Array<{ content: string }>).map((m) => m.content);
      for (const t of texts) if (!stored.includes(t)) problems.push(`chat 2xx but message missing: ${id} ${t}`);
    }
    const final = db.prepare("SELECT count(*) AS n FROM messages WHERE conversation_id = ? AND message_type = 'final_response'");
    for (const id of ledger.processed) if ((final.get(id) as { n: number }).n === 0) problems.push(`process 2xx but no answer: ${id}`);
    const running = db.query("SELECT count(*) AS n FROM processing_runs WHERE status = 'running'").get() as { n: number };
    if (running.n > 0) problems.push(`${running.n} final processings left running after restart`);
    // A trial starts with 5 requests; each delivered answer costs exactly one, a refunded one nothing.
    const spend = db
      .query(
        `SELECT u.email, u.plan_queries + u.extra_queries AS left, (SELECT count(*) FROM processing_runs r WHERE r.user_id = u.id AND r.charged = 1) AS charged
       FROM users u WHERE u.subscription_type = 'trial'`,
      )
      .all() as Array<{ email: string; left: number; charged: number }>;
    for (const s of spend) if (s.left !== 5 - s.charged) problems.push(`quota of ${s.email}: ${s.left} left for ${s.charged} charged`);
    const fulfil = db.prepare(
      "SELECT (SELECT count(*) FROM fulfilments WHERE checkout_session_id = ?1) AS f, (SELECT count(*) FROM purchases WHERE checkout_session_id = ?1) AS p",
    );
    const plan = db.prepare("SELECT subscription_type AS plan, plan_queries AS q FROM users WHERE email = ?");
    for (const [id, b] of ledger.paid) {
      const row = fulfil.get(id) as { f: number; p: number };
      if (row.f !== 1 || row.p !== 1) problems.push(`session ${id}: ${row.f} fulfilments, ${row.p} purchases`);
      const u = plan.get(b.email) as { plan: string; q: number } | null;
      if (u?.plan !== "basic" || u.q !== 10) problems.push(`buyer ${b.email}: ${u?.plan} with ${u?.q} requests (want basic, 10)`);
    }
    for (const id of ledger.confirmed) if (!ledger.paid.has(id)) problems.push(`confirmed but never paid: ${id}`);
  } finally {
    db.close();
  }
  return problems;
}
