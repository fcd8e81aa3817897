import { Database } from "bun:sqlite";
import { loadSecretKey, sealSecret } from "../../src/council/secret-box.ts";
import { TEST_SECRET_KEY } from "./app.ts";

type Value = string | number | null | Uint8Array;

function insertRow(db: Database, table: string, row: Record<string, Value>): void {
  const cols = Object.keys(row);
  db.query(`INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`).run(...Object.values(row));
}

/**
 * Puts at least one row in every table of a migrated SQLite database, raw as
 * SQLite stores them (milliseconds, 0/1, JSON text), for tests that move a
 * whole database (`unisson db copy`). Expects user 1 to exist already (made
 * by the CLI, with a real password hash); adds a deleted user (id 2, an id
 * never to hand out again) and an admin (id 3), a conversation of user 1
 * with a JSON answer (id 1) and one of user 3 (id 2), a run, billing rows.
 * Plain SQL on bun:sqlite, so it depends on nothing of the data layer.
 */
export function seedEveryTable(file: string): void {
  const db = new Database(file);
  const insert = (table: string, row: Record<string, Value>) => insertRow(db, table, row);
  const at = 1_790_000_000_123;
  const later = 1_790_000_360_456;
  db.run("PRAGMA foreign_keys = ON");
  db.transaction(() => {
    const person = { password_hash: "x", first_name: "P", last_name: "Q", created_at: at, updated_at: at };
    insert("users", { id: 2, email: "parti@example.fr", ...person });
    db.run("DELETE FROM users WHERE id = 2");
    insert("users", {
      ...person,
      id: 3,
      email: "admin@example.fr",
      password_hash: "y",
      first_name: "Ada",
      last_name: "Min",
      is_admin: 1,
      two_factor_enabled: 1,
      subscription_type: "pro",
      billing_cycle: "annual",
      plan_queries: 180,
      extra_queries: 7,
      plan_started_at: at,
      quota_renews_at: later,
      period_ends_at: later,
      stripe_customer_id: "cus_1",
      stripe_subscription_id: "sub_1",
      referral_code: "ADA123",
      updated_at: later,
    });
    insert("sessions", { user_id: 1, token_hash: "s1", created_at: at, expires_at: later, last_seen_at: at, ip: "203.0.113.7", user_agent: "Firefox" });
    insert("remembered_devices", { user_id: 1, token_hash: "r1", created_at: at, expires_at: later });
    insert("two_factor_codes", { user_id: 3, code_hash: "c1", created_at: at, expires_at: later, failed_attempts: 2, ended_at: later });
    insert("auth_failures", { user_id: 3, kind: "two_factor", created_at: at });
    insert("password_reset_tokens", { user_id: 1, token_hash: "p1", created_at: at, expires_at: later, used_at: later });
    insert("api_keys", { user_id: 1, name: "script", prefix: "uns_ab", token_hash: "k1", created_at: at, last_used_at: later });
    insert("conversations", { id: 1, user_id: 1, title: "Chevaux", message_count: 2, created_at: at, updated_at: later });
    insert("conversations", { id: 2, user_id: 3, title: "API", source: "api", created_at: at, updated_at: at });
    insert("messages", { conversation_id: 1, sender: "user", content: "Que mangent les chevaux en hiver ?", created_at: at });
    insert("messages", {
      conversation_id: 1,
      sender: "assistant",
      message_type: "final_response",
      content: "## Réponse consolidée\nDu foin, des pommes « bio » et de l'eau tiède.",
      result_data: JSON.stringify({
        primary_ai: "GPT-4",
        available_ais: ["GPT-4", "Mistral Large"],
        answers: { z: "dernier", a: "premier" },
        score: 0.5,
        none: null,
      }),
      created_at: later,
    });
    insert("processing_runs", {
      conversation_id: 1,
      turn_message_id: 1,
      user_id: 1,
      status: "done",
      result_message_id: 2,
      charged: 1,
      charged_from: "extra",
      events: JSON.stringify([{ type: "model_done", model: "GPT-4" }]),
      created_at: at,
      finished_at: later,
    });
    insert("attachments", {
      user_id: 1,
      conversation_id: 1,
      message_id: 1,
      name: "bail été.pdf",
      kind: "pdf",
      mime: "application/pdf",
      size: 9,
      data: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0x80, 0x0a]),
      text: "Page 1\fPage 2",
      pages: 2,
      created_at: at,
    });
    insert("attachments", {
      user_id: 1,
      name: "photo.png",
      kind: "png",
      mime: "image/png",
      size: 4,
      data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
      model_image: new Uint8Array([1, 2, 3]),
      thumbnail: new Uint8Array([4, 5]),
      width: 10,
      height: 20,
      created_at: later,
    });
    insert("api_requests", { api_key_id: 1, request_key: "body:abc", body_hash: "abc", conversation_id: 2, created_at: at, read_at: later });
    insert("ai_calls", {
      user_id: 1,
      conversation_id: 1,
      model: "GPT-4",
      provider: "openai",
      purpose: "answer",
      outcome: "ok",
      http_status: 200,
      latency_ms: 1234,
      tokens_in: 10,
      tokens_out: 20,
      cost_eur: 0.0012345678901,
      created_at: at,
    });
    insert("shared_links", {
      user_id: 1,
      conversation_id: 1,
      token_hash: "sh1",
      prefix: "AbCd",
      include_models: 1,
      snapshot: '{"title":"Chevaux","turns":[{"question":"Que mangent les chevaux en hiver ?","answer":"Du foin.","sources":[],"models":null}]}',
      created_at: at,
    });
    insert("fulfilments", { checkout_session_id: "cs_1", user_id: 1, product_type: "token_pack_10", fulfilled_at: at });
    insert("purchases", {
      user_id: 1,
      product_type: "token_pack_10",
      checkout_session_id: "cs_1",
      amount_cents: 500,
      status: "disputed",
      held_requests: 3,
      created_at: at,
    });
    insert("stripe_events", { id: "evt_1", type: "checkout.session.completed", received_at: at });
    insert("pending_plan_changes", { user_id: 3, target_plan: "basic", target_cycle: "monthly", scheduled_at: later, created_at: at });
    insert("referrals", { referrer_id: 3, referee_id: 1, checkout_session_id: "cs_1", bonus: 5, created_at: at });
    insert("billing_changes", { user_id: 1, actor: "stripe", action: "pack", detail: "10 requêtes ajoutées", stripe_ref: "evt_1", created_at: at });
    insert("promo_codes", { code: "NOEL", percent_off: 20, max_uses: 10, uses: 1, expires_at: later, created_at: at });
    insert("checkout_sessions", { id: "cs_1", user_id: 1, product_type: "token_pack_10", promo_code: "NOEL", referrer_id: 3, created_at: at });
    insert("contact_messages", { user_id: 1, name: "Claire", email: "claire@example.fr", subject: "Merci", message: "Très utile", created_at: at });
    insert("mail_outbox", { to: "claire@example.fr", subject: "Code", text: "123456", kind: "two_factor", status: "sent", created_at: at, sent_at: later });
    insert("server_lease", { id: 1, holder: "h", hostname: "box", pid: 42, acquired_at: at, heartbeat_at: later, expires_at: 0 });
    insert("rate_limits", { key: "ip:auth.login:203.0.113.7", count: 3, reset_at: 4_102_444_800_000 });
    insert("audit_log", { at, actor: "cli", action: "user.create", target_email: "claire@example.fr", changes: '{"plan":[null,"trial"]}' });
    // The migration seeds the six members and the settings row; a seventh with every column set.
    insert("council_members", {
      name: "Llama local",
      specialty: "Modèle local",
      provider: "openai-compatible",
      model: "llama3.1",
      base_url: "http://127.0.0.1:11434/v1",
      // Sealed as a server with the tests' SECRET_KEY seals it: `db copy` opens every key before it copies (issue 46).
      api_key_enc: sealSecret(loadSecretKey({ secretKey: TEST_SECRET_KEY, dataDir: "" }), "sk-every-table-key-abcd"),
      api_key_last4: "abcd",
      vision: 0,
      price_in_eur: 0.1,
      price_out_eur: 0.2,
      timeout_ms: 30_000,
      enabled: 1,
      synthesis_rank: 7,
      position: 7,
      created_at: at,
      updated_at: later,
    });
  })();
  db.close();
}

/** `n` more rows in `table`, in one transaction (tables of several pages). */
export function addRows(file: string, table: string, n: number, row: (i: number) => Record<string, Value>): void {
  const db = new Database(file);
  db.transaction(() => {
    for (let i = 0; i < n; i++) insertRow(db, table, row(i));
  })();
  db.close();
}
