import { fr } from "../../i18n/fr.ts";
import type { PublicUser } from "../../lib/api-types.ts";

const t = fr.admin.edit;

export type Plan = PublicUser["subscription_type"];
export const PLANS: readonly Plan[] = ["trial", "basic", "pro", "expired"];
/** docs/PRODUCT.md#admin-edit: the admin trial-days field goes up to 30. */
export const TRIAL_DAYS_MAX = 30;

/** The edit form as typed: every field a string, as inputs give them. */
export type UserForm = {
  first_name: string;
  last_name: string;
  email: string;
  subscription_type: Plan;
  remaining_queries: string;
  trial_days_remaining: string;
};

/**
 * What the form sends: the numbers as numbers. Typed here because the route's
 * schema reads them loosely (its inferred input is unknown); admin.api.ts
 * checks at compile time that it fits PUT /admin/users/{id}.
 */
export type UserPayload = {
  first_name: string;
  last_name: string;
  email: string;
  subscription_type: Plan;
  remaining_queries: number;
  trial_days_remaining: number;
};

export type FormErrors = Partial<Record<keyof UserForm, string>>;

export function formFromUser(u: PublicUser): UserForm {
  return {
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    subscription_type: u.subscription_type,
    remaining_queries: String(u.remaining_queries),
    trial_days_remaining: String(u.trial_days_remaining),
  };
}

/** docs/PRODUCT.md#admin-edit: numbers are parsed as integers, anything unreadable counts as 0. */
export function toInt(value: string): number {
  const n = Number.parseInt(value.trim(), 10);
  return Number.isNaN(n) ? 0 : n;
}

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The rules of docs/PRODUCT.md#admin-edit for the admin edit dialog; the payload is built from trimmed values. */
export function validateUserForm(form: UserForm): { errors: FormErrors; payload: UserPayload } {
  const payload: UserPayload = {
    first_name: form.first_name.trim(),
    last_name: form.last_name.trim(),
    email: form.email.trim(),
    subscription_type: form.subscription_type,
    remaining_queries: toInt(form.remaining_queries),
    trial_days_remaining: toInt(form.trial_days_remaining),
  };
  const errors: FormErrors = {};
  if (!payload.first_name) errors.first_name = t.firstNameRequired;
  if (!payload.last_name) errors.last_name = t.lastNameRequired;
  if (!payload.email) errors.email = t.emailRequired;
  else if (!EMAIL_LIKE.test(payload.email)) errors.email = t.emailInvalid;
  if (payload.remaining_queries < 0) errors.remaining_queries = t.remainingNegative;
  if (payload.trial_days_remaining < 0) errors.trial_days_remaining = t.trialDaysNegative;
  return { errors, payload };
}
