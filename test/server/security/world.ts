import { insertSharedLink } from "../../../src/sharing/sharing.queries.ts";
import { insertAttachment } from "../../../src/attachments/attachments.queries.ts";
import { randomToken, sha256 } from "../../../src/lib/tokens.ts";
import { afterAll, beforeAll } from "bun:test";
import { createApiKey } from "../../../src/auth/api-keys.ts";
import { createSession } from "../../../src/auth/sessions.ts";
import { createTestClock } from "../../helpers/clock.ts";
import { DAY } from "../../../src/lib/clock.ts";
import { type FakeProviders, startFakeProviders } from "../../fakes/ai/index.ts";
import { type FakeStripe, startFakeStripe } from "../../fakes/stripe/server.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

/** The five callers of the authorization matrix (spec: no session, expired, user, other user, admin). */
export const IDENTITIES = ["none", "expired", "user", "other", "admin"] as const;
export type Identity = (typeof IDENTITIES)[number];

export const ORIGIN = "http://localhost:3000";

export type Outside = { ai: FakeProviders; stripe: FakeStripe };

/** One set of fake providers and one fake Stripe for the test file (port 0, loopback), stopped after. */
export function useOutside(): () => Outside {
  let outside: Outside | undefined;
  beforeAll(async () => {
    outside = { ai: startFakeProviders(), stripe: await startFakeStripe() };
  });
  afterAll(async () => {
    await outside?.ai.stop();
    outside?.stripe.stop();
  });
  return () => outside!;
}

/**
 * A fresh app and database holding what the matrix's requests point at:
 * `user` owns a conversation waiting for final processing and an open
 * Stripe checkout; `other` is a second regular user; `admin` an
 * administrator; `expired` a user whose only session ran out; `target` a
 * user the admin routes act on.
 */
export async function buildWorld(outside: Outside) {
  const clock = createTestClock();
  const t = await createTestApp({
    env: { ...outside.ai.env, ...outside.stripe.env, AI_TIMEOUT_MS: "15000" /* a stall limit of 5 s: docs/TESTING.md */ },
    deps: { clock },
  });
  const now = clock.now();
  const user = await makeUser(t.db, now, { subscriptionType: "trial" });
  const other = await makeUser(t.db, now);
  const admin = await makeUser(t.db, now, { isAdmin: true, subscriptionType: "pro" });
  const target = await makeUser(t.db, now);
  const lapsed = await makeUser(t.db, now);
  // A session opened 31 days ago: past its 30-day life, never used since.
  const expiredToken = await createSession(t.db, lapsed.user.id, new Date(now.getTime() - 31 * DAY));

  const chat = await t.call("POST", "/api/unisson/chat", { token: user.token, json: { message: "Quelle est la capitale de la France ?" } });
  if (chat.status !== 200) throw new Error(`world: chat ${chat.status} ${JSON.stringify(chat.body)}`);
  const checkout = await t.call("POST", "/api/stripe/create-payment-intent", {
    token: user.token,
    json: { product_type: "subscription_basic", is_annual: false, origin_url: ORIGIN },
  });
  if (checkout.status !== 200) throw new Error(`world: checkout ${checkout.status} ${JSON.stringify(checkout.body)}`);

  const apiKey = await createApiKey(t.db, user.user.id, "Monde", now);
  // A read-only link of the user's conversation (its copy is what a link made after an answer would hold).
  const shareToken = randomToken(32);
  const share = await insertSharedLink(t.db, {
    userId: user.user.id,
    conversationId: chat.body.conversation_id,
    tokenHash: sha256(shareToken),
    prefix: shareToken.slice(0, 4),
    includeModels: false,
    snapshot: { title: "Capitale", turns: [{ question: "Quelle est la capitale de la France ?", answer: "Paris.", sources: [], models: null }] },
    createdAt: now,
  });

  // An upload of the user's, not sent yet: a picture, so it has a thumbnail too.
  const attachment = await insertAttachment(t.db, {
    userId: user.user.id,
    name: "photo.png",
    kind: "png",
    mime: "image/png",
    size: 4,
    data: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    thumbnail: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    createdAt: now,
  });

  const tokens: Record<Identity, string | undefined> = {
    none: undefined,
    expired: expiredToken,
    user: user.token,
    other: other.token,
    admin: admin.token,
  };
  return {
    ...t,
    tokens,
    user: user.user,
    other: other.user,
    admin: admin.user,
    target: target.user,
    conversationId: chat.body.conversation_id as number,
    /** The user's personal API key (/v1 accepts only keys: every session identity gets 401 there). */
    apiKeyId: apiKey.key.id,
    apiKeySecret: apiKey.secret,
    shareId: share.id,
    shareToken,
    attachmentId: attachment.id,
    checkoutSessionId: String(checkout.body.checkout_url).split("/").pop()!,
  };
}

export type World = Awaited<ReturnType<typeof buildWorld>>;
