import type { UserRow } from "../db/schema/index.ts";
import { effectivePlan, remainingQueries, trialDaysRemaining } from "./quota.ts";

/** The user object of docs/PRODUCT.md#user-object, exactly these fields. */
export type PublicUser = {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  subscription_type: "trial" | "basic" | "pro" | "expired";
  remaining_queries: number;
  trial_days_remaining: number;
  is_admin: boolean;
  created_at: string;
};

/** What toPublicUser reads: /api/auth/me's session lookup selects only these columns (src/auth/sessions.ts). */
export type PublicUserRow = Pick<
  UserRow,
  "id" | "email" | "firstName" | "lastName" | "subscriptionType" | "planQueries" | "extraQueries" | "trialEndsAt" | "isAdmin" | "createdAt"
>;

export function toPublicUser(u: PublicUserRow, now: Date): PublicUser {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    email: u.email,
    subscription_type: effectivePlan(u, now),
    remaining_queries: remainingQueries(u),
    trial_days_remaining: trialDaysRemaining(u, now),
    is_admin: u.isAdmin,
    created_at: u.createdAt.toISOString(),
  };
}
