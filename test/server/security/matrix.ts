import { TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { ORIGIN, type World } from "./world.ts";

/**
 * Every route of the app, with a request that reaches its handler in a
 * fresh world (world.ts) and the status each caller must get. Used by the
 * authorization matrix and by the hostile-input tests (every JSON body).
 */
export type Req = { path: string; json?: unknown; headers?: Record<string, string> };
/** Statuses for [none, expired, user, other, admin]. */
export type Row = { req: (w: World) => Req; expect: [number, number, number, number, number] };

const PUBLIC_200: Row["expect"] = [200, 200, 200, 200, 200];
const SIGNED_IN: Row["expect"] = [401, 401, 200, 200, 200];
const OWNER_ONLY: Row["expect"] = [401, 401, 200, 404, 404];
const ADMIN_ONLY: Row["expect"] = [401, 401, 403, 403, 200];
const KEY_ONLY: Row["expect"] = [401, 401, 401, 401, 401];

const profile = (w: World) => ({
  first_name: "Léa",
  last_name: "Roux",
  email: w.target.email,
  subscription_type: "basic",
  remaining_queries: 3,
  trial_days_remaining: 0,
});

export const MATRIX: Record<string, Row> = {
  "GET /api/health": { req: () => ({ path: "/api/health" }), expect: PUBLIC_200 },
  "GET /api/warmup": { req: () => ({ path: "/api/warmup" }), expect: PUBLIC_200 },
  // Public, the same for every caller. On SQLite the test world holds no server lease, so it is not ready;
  // PostgreSQL has no lease (several servers share it: src/system/readiness.ts), so it is ready there.
  "GET /api/health/ready": { req: () => ({ path: "/api/health/ready" }), expect: onPostgres ? PUBLIC_200 : [503, 503, 503, 503, 503] },
  // Without METRICS_TOKEN there is no metrics endpoint, whoever asks (a session token is not the metrics token).
  "GET /metrics": { req: () => ({ path: "/metrics" }), expect: [404, 404, 404, 404, 404] },
  "POST /api/auth/register": {
    req: () => ({
      path: "/api/auth/register",
      json: { email: `nouveau-${crypto.randomUUID()}@example.fr`, password: "Girafe-Secret-123", first_name: "Noé", last_name: "Petit" },
    }),
    expect: PUBLIC_200,
  },
  // A bearer changes nothing to logging in: the password decides.
  "POST /api/auth/login": { req: (w) => ({ path: "/api/auth/login", json: { email: w.user.email, password: TEST_PASSWORD } }), expect: PUBLIC_200 },
  "POST /api/auth/2fa/request": {
    req: (w) => ({ path: "/api/auth/2fa/request", json: { email: w.admin.email, password: TEST_PASSWORD } }),
    expect: PUBLIC_200,
  },
  "POST /api/auth/2fa/verify": {
    req: (w) => ({ path: "/api/auth/2fa/verify", json: { email: w.admin.email, code: "000000" } }),
    expect: [400, 400, 400, 400, 400],
  },
  "GET /api/auth/me": { req: () => ({ path: "/api/auth/me" }), expect: SIGNED_IN },
  "POST /api/auth/logout": { req: () => ({ path: "/api/auth/logout" }), expect: SIGNED_IN },
  "GET /api/auth/export": { req: () => ({ path: "/api/auth/export" }), expect: SIGNED_IN },
  // Each caller deletes their own account with their password; an admin account is never deleted from here.
  "DELETE /api/auth/account": { req: () => ({ path: "/api/auth/account", json: { password: TEST_PASSWORD } }), expect: [401, 401, 200, 200, 403] },
  "POST /api/auth/forgot-password": { req: (w) => ({ path: "/api/auth/forgot-password", json: { email: w.user.email } }), expect: PUBLIC_200 },
  "GET /api/auth/validate-reset-token/:token": { req: () => ({ path: "/api/auth/validate-reset-token/inconnu-0123456789" }), expect: PUBLIC_200 },
  "POST /api/auth/reset-password": {
    req: () => ({ path: "/api/auth/reset-password", json: { token: "inconnu-0123456789", new_password: "Nouveau123" } }),
    expect: [400, 400, 400, 400, 400],
  },
  "GET /api/auth/api-keys": { req: () => ({ path: "/api/auth/api-keys" }), expect: SIGNED_IN },
  "POST /api/auth/api-keys": { req: () => ({ path: "/api/auth/api-keys", json: { name: "Script" } }), expect: [401, 401, 201, 201, 201] },
  "DELETE /api/auth/api-keys/:id": { req: (w) => ({ path: `/api/auth/api-keys/${w.apiKeyId}` }), expect: OWNER_ONLY },
  // Personal API keys only: no web session opens /v1 (test/server/openai covers the keys themselves).
  "GET /v1/models": { req: () => ({ path: "/v1/models" }), expect: KEY_ONLY },
  "GET /v1/models/:id": { req: () => ({ path: "/v1/models/unisson" }), expect: KEY_ONLY },
  "POST /v1/chat/completions": {
    req: () => ({ path: "/v1/chat/completions", json: { model: "unisson", messages: [{ role: "user", content: "Bonjour ?" }] } }),
    expect: KEY_ONLY,
  },
  "POST /v1/responses": { req: () => ({ path: "/v1/responses", json: { model: "unisson", input: "Bonjour ?" } }), expect: KEY_ONLY },
  "GET /api/admin/stats": { req: () => ({ path: "/api/admin/stats" }), expect: ADMIN_ONLY },
  "GET /api/admin/usage": { req: () => ({ path: "/api/admin/usage?days=7" }), expect: ADMIN_ONLY },
  "GET /api/admin/ai-costs": { req: () => ({ path: "/api/admin/ai-costs" }), expect: ADMIN_ONLY },
  "GET /api/admin/users": { req: () => ({ path: "/api/admin/users?page=1&per_page=10" }), expect: ADMIN_ONLY },
  "GET /api/admin/users/:id": { req: (w) => ({ path: `/api/admin/users/${w.target.id}` }), expect: ADMIN_ONLY },
  "PUT /api/admin/users/:id": { req: (w) => ({ path: `/api/admin/users/${w.target.id}`, json: profile(w) }), expect: ADMIN_ONLY },
  "DELETE /api/admin/users/:id": { req: (w) => ({ path: `/api/admin/users/${w.target.id}` }), expect: ADMIN_ONLY },
  // The council (« Modèles », issue 35). No key is given here: a sealed key would need SECRET_KEY or a key file.
  "GET /api/admin/council": { req: () => ({ path: "/api/admin/council" }), expect: ADMIN_ONLY },
  "POST /api/admin/council/members": {
    req: () => ({
      path: "/api/admin/council/members",
      json: {
        name: `Local ${crypto.randomUUID().slice(0, 8)}`,
        provider: "openai-compatible",
        model: "llama3.1:8b",
        base_url: "http://127.0.0.1:9/v1",
        enabled: false,
      },
    }),
    expect: [401, 401, 403, 403, 201],
  },
  "PATCH /api/admin/council/members/:name": {
    req: () => ({ path: "/api/admin/council/members/GPT-4", json: { specialty: "Raisonnement polyvalent" } }),
    expect: ADMIN_ONLY,
  },
  "POST /api/admin/council/members/:name/test": { req: () => ({ path: "/api/admin/council/members/GPT-4/test" }), expect: ADMIN_ONLY },
  "PUT /api/admin/council/synthesisers": {
    req: () => ({ path: "/api/admin/council/synthesisers", json: { names: ["Claude Opus 4.1", "GPT-4"] } }),
    expect: ADMIN_ONLY,
  },
  "PATCH /api/admin/council/settings": { req: () => ({ path: "/api/admin/council/settings", json: { peer_review: false } }), expect: ADMIN_ONLY },
  "POST /api/contact": {
    req: () => ({ path: "/api/contact", json: { name: "Léa", email: "lea@example.fr", subject: "Question", message: "Bonjour" } }),
    expect: PUBLIC_200,
  },
  "GET /api/pricing/products": { req: () => ({ path: "/api/pricing/products" }), expect: PUBLIC_200 },
  "GET /api/stripe/upgrade-price/:product_type": { req: () => ({ path: "/api/stripe/upgrade-price/subscription_pro" }), expect: SIGNED_IN },
  "POST /api/stripe/create-payment-intent": {
    req: () => ({ path: "/api/stripe/create-payment-intent", json: { product_type: "subscription_basic", is_annual: false, origin_url: ORIGIN } }),
    // The admin of this world is Pro by an operator's hand, with no Stripe subscription: it may subscribe (issue 12).
    expect: SIGNED_IN,
  },
  "GET /api/stripe/checkout-status/:session_id": { req: (w) => ({ path: `/api/stripe/checkout-status/${w.checkoutSessionId}` }), expect: OWNER_ONLY },
  // No session: the Stripe signature is the authentication, and there is none here.
  "POST /api/stripe/webhook": {
    req: () => ({ path: "/api/stripe/webhook", json: { id: "evt_forged", type: "checkout.session.completed" } }),
    expect: [400, 400, 400, 400, 400],
  },
  "GET /api/subscription/status": { req: () => ({ path: "/api/subscription/status" }), expect: SIGNED_IN },
  // Signed in, but nobody here has a paid subscription to change or a change to cancel.
  "POST /api/subscription/request-change": {
    req: () => ({ path: "/api/subscription/request-change", json: { target_subscription_type: "pro", target_billing_cycle: "monthly" } }),
    expect: [401, 401, 400, 400, 400],
  },
  "DELETE /api/subscription/cancel-change": { req: () => ({ path: "/api/subscription/cancel-change" }), expect: [401, 401, 404, 404, 404] },
  "GET /api/promo/my-code": { req: () => ({ path: "/api/promo/my-code" }), expect: SIGNED_IN },
  "POST /api/promo/validate": { req: () => ({ path: "/api/promo/validate", json: { code: "INCONNU" } }), expect: SIGNED_IN },
  "GET /api/unisson/status": { req: () => ({ path: "/api/unisson/status" }), expect: PUBLIC_200 },
  "GET /api/unisson/models": { req: () => ({ path: "/api/unisson/models" }), expect: PUBLIC_200 },
  // Continuing the user's conversation: nobody else may write into it, not even an admin.
  "POST /api/unisson/chat": {
    req: (w) => ({ path: "/api/unisson/chat", json: { conversation_id: w.conversationId, message: "Et sa population ?" } }),
    expect: OWNER_ONLY,
  },
  // An ask is found only among its own user's pending asks (src/chat/pending-asks.ts): none is pending here, so every signed-in user gets 409.
  "POST /api/unisson/chat/stop": {
    req: () => ({ path: "/api/unisson/chat/stop", json: { ask_id: "matrice-inconnue-0001" } }),
    expect: [401, 401, 409, 409, 409],
  },
  "POST /api/unisson/process": { req: (w) => ({ path: "/api/unisson/process", json: { conversation_id: w.conversationId } }), expect: OWNER_ONLY },
  "GET /api/unisson/history": { req: () => ({ path: "/api/unisson/history" }), expect: SIGNED_IN },
  "GET /api/unisson/conversation/:id": { req: (w) => ({ path: `/api/unisson/conversation/${w.conversationId}` }), expect: OWNER_ONLY },
  "GET /api/unisson/conversation/:id/events": { req: (w) => ({ path: `/api/unisson/conversation/${w.conversationId}/events` }), expect: OWNER_ONLY },
  "GET /api/unisson/conversation/:id/export": {
    req: (w) => ({ path: `/api/unisson/conversation/${w.conversationId}/export?format=json` }),
    expect: OWNER_ONLY,
  },
  "DELETE /api/unisson/conversation/:id": { req: (w) => ({ path: `/api/unisson/conversation/${w.conversationId}` }), expect: OWNER_ONLY },
  "PATCH /api/unisson/conversation/:id": {
    req: (w) => ({ path: `/api/unisson/conversation/${w.conversationId}`, json: { title: "Nouveau titre" } }),
    expect: OWNER_ONLY,
  },
  // No run in progress in the world: the owner is told so (409), anyone else finds nothing (404).
  "POST /api/unisson/conversation/:id/stop": {
    req: (w) => ({ path: `/api/unisson/conversation/${w.conversationId}/stop` }),
    expect: [401, 401, 409, 404, 404],
  },
  "POST /api/unisson/conversation/:id/edit": {
    req: (w) => ({ path: `/api/unisson/conversation/${w.conversationId}/edit`, json: { message: "Question reformulée" } }),
    expect: OWNER_ONLY,
  },
  "POST /api/unisson/conversation/:id/regenerate": { req: (w) => ({ path: `/api/unisson/conversation/${w.conversationId}/regenerate` }), expect: OWNER_ONLY },
  "PUT /api/unisson/conversation/:id/versions/:group": {
    // The world's question was never asked again, so it has no versions (owner included: 404); test/server/chat/versions.test.ts switches real ones.
    req: (w) => ({ path: `/api/unisson/conversation/${w.conversationId}/versions/1`, json: { version: 1 } }),
    expect: [401, 401, 404, 404, 404],
  },
  "GET /api/attachment-limits": { req: () => ({ path: "/api/attachment-limits" }), expect: PUBLIC_200 },
  "GET /api/attachment-storage": { req: () => ({ path: "/api/attachment-storage" }), expect: SIGNED_IN },
  // Without a multipart body: the signed-in reach the handler, which asks for the file.
  "POST /api/attachments": { req: () => ({ path: "/api/attachments" }), expect: [401, 401, 400, 400, 400] },
  "GET /api/attachments/:id": { req: (w) => ({ path: `/api/attachments/${w.attachmentId}` }), expect: OWNER_ONLY },
  "GET /api/attachments/:id/thumbnail": { req: (w) => ({ path: `/api/attachments/${w.attachmentId}/thumbnail` }), expect: OWNER_ONLY },
  "GET /api/shares": { req: () => ({ path: "/api/shares" }), expect: SIGNED_IN },
  // The owner's conversation has no answer yet: nothing to share (409); anyone else's: 404.
  "POST /api/shares": { req: (w) => ({ path: "/api/shares", json: { conversation_id: w.conversationId } }), expect: [401, 401, 409, 404, 404] },
  "DELETE /api/shares/:id": { req: (w) => ({ path: `/api/shares/${w.shareId}` }), expect: OWNER_ONLY },
  // Whoever holds the link, with or without an account.
  "GET /api/shared/:token": { req: (w) => ({ path: `/api/shared/${w.shareToken}` }), expect: PUBLIC_200 },
  "GET /partage/:token": { req: (w) => ({ path: `/partage/${w.shareToken}` }), expect: PUBLIC_200 },
  "GET /": { req: () => ({ path: "/" }), expect: PUBLIC_200 },
  "GET /*": { req: () => ({ path: "/reset-password" }), expect: PUBLIC_200 },
};
