import type { InferRequestType, InferResponseType } from "hono/client";
import type { api } from "./api.ts";

/**
 * The API's answers as the SPA sees them, inferred from the server's routes
 * through hono's client (docs/ARCHITECTURE.md, "Web"): a field renamed on the
 * server breaks the build here, never the user. Never write an answer's shape
 * by hand; name it here from its route.
 */
type Ok<T> = InferResponseType<T, 200>;

/** The user object (GET /auth/me, and inside every sign-in answer). */
export type PublicUser = Ok<typeof api.auth.me.$get>;
export type SignedIn = Ok<typeof api.auth.login.$post>;

/** A message of a conversation (GET /conversation/{id}); also the `final` event's message. */
export type ChatMessage = Ok<(typeof api.unisson.conversation)[":id"]["$get"]>["messages"][number];
export type ConversationSummary = Ok<typeof api.unisson.history.$get>["conversations"][number];
export type ModelsAnswer = Ok<typeof api.unisson.models.$get>;
export type ModelInfo = ModelsAnswer["models"][number];
export type AiStatus = ModelsAnswer["ai_status"][number];

export type ReferralInfo = Ok<(typeof api.promo)["my-code"]["$get"]>;
export type PublicApiKey = Ok<(typeof api.auth)["api-keys"]["$get"]>["keys"][number];

export type AdminStats = Ok<typeof api.admin.stats.$get>;
export type UsageReport = Ok<typeof api.admin.usage.$get>;
export type AiCosts = Ok<(typeof api.admin)["ai-costs"]["$get"]>;
export type AdminUserRow = Ok<typeof api.admin.users.$get>["users"][number];
export type UserDetail = Ok<(typeof api.admin.users)[":id"]["$get"]>;
/** The admin's edit of an account (PUT /admin/users/{id}). */
export type AdminUserUpdate = InferRequestType<(typeof api.admin.users)[":id"]["$put"]>["json"];
/** The council as the « Modèles » tab shows it, and its edits (issue 35). */
export type CouncilView = Ok<typeof api.admin.council.$get>;
export type CouncilMember = CouncilView["members"][number];
export type CouncilMemberAdd = InferRequestType<typeof api.admin.council.members.$post>["json"];
export type CouncilMemberPatch = InferRequestType<(typeof api.admin.council.members)[":name"]["$patch"]>["json"];
export type MemberTest = Ok<(typeof api.admin.council.members)[":name"]["test"]["$post"]>;

export type SubscriptionInfo = Ok<typeof api.subscription.status.$get>;
export type UpgradeQuote = Ok<(typeof api.stripe)["upgrade-price"][":product_type"]["$get"]>;
export type ChangeAnswer = Ok<(typeof api.subscription)["request-change"]["$post"]>;
export type CheckoutInput = InferRequestType<(typeof api.stripe)["create-payment-intent"]["$post"]>["json"];
export type TokenCheck = Ok<(typeof api.auth)["validate-reset-token"][":token"]["$get"]>;

/**
 * The JSON answer of POST /process (the route also streams, when asked for
 * events: that member is left out); also the data of a run's `final` event.
 */
export type ProcessAnswer = Extract<Ok<typeof api.unisson.process.$post>, { message: unknown }>;
