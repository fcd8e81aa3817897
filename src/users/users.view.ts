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

export function toPublicUser(u: UserRow, now: Date): PublicUser {
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
