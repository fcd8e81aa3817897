import { type ZodType, z } from "zod";
import { PLANS } from "../db/schema/index.ts";
import { AppError } from "../lib/errors.ts";
import { requiredText } from "../lib/validate.ts";
import { USAGE_MAX_DAYS } from "./usage-report.ts";
import { TRIAL_DAYS_MAX } from "../users/quota.ts";

/** Upper bounds that keep a typo (an extra zero or ten) from becoming a stored absurdity. */
export const MAX_QUERIES = 100_000;
const MAX_PER_PAGE = 100;
const NAME_MAX = 100;
const EMAIL_MAX = 254;

const ADMIN_TEXTS = {
  firstName: "Le prénom est requis",
  lastName: "Le nom est requis",
  emailRequired: "L'email est requis",
  emailInvalid: "Email invalide",
  queriesNegative: "Le nombre de requêtes ne peut pas être négatif",
  queriesInteger: "Le nombre de requêtes doit être un nombre entier",
  queriesTooMany: `Le nombre de requêtes ne peut pas dépasser ${MAX_QUERIES}`,
  daysNegative: "Le nombre de jours ne peut pas être négatif",
  daysInteger: "Le nombre de jours doit être un nombre entier",
  daysTooMany: `Le nombre de jours d'essai ne peut pas dépasser ${TRIAL_DAYS_MAX}`,
  plan: "Le type d'abonnement doit être trial, basic, pro ou expired",
  page: "Le numéro de page doit être un entier supérieur ou égal à 1",
  perPage: `Le nombre d'utilisateurs par page doit être un entier entre 1 et ${MAX_PER_PAGE}`,
  search: "La recherche est trop longue (100 caractères au plus)",
  userId: "Identifiant d'utilisateur invalide",
} as const;

export const emailField = z
  .string({ error: ADMIN_TEXTS.emailRequired })
  .trim()
  .min(1, ADMIN_TEXTS.emailRequired)
  .max(EMAIL_MAX, ADMIN_TEXTS.emailInvalid)
  .pipe(z.email({ error: ADMIN_TEXTS.emailInvalid }))
  .transform((v) => v.toLowerCase());

const planField = z.enum(PLANS, { error: ADMIN_TEXTS.plan });

/** A whole number typed in a form may arrive as "12" or " 12 ": read it as 12, anything else is refused. */
function intField(texts: { integer: string; negative: string; max: string }, max: number) {
  return z.preprocess(
    (v) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v.trim()) : v),
    z.number({ error: texts.integer }).int(texts.integer).min(0, texts.negative).max(max, texts.max),
  );
}

const queriesField = intField({ integer: ADMIN_TEXTS.queriesInteger, negative: ADMIN_TEXTS.queriesNegative, max: ADMIN_TEXTS.queriesTooMany }, MAX_QUERIES);
const trialDaysField = intField({ integer: ADMIN_TEXTS.daysInteger, negative: ADMIN_TEXTS.daysNegative, max: ADMIN_TEXTS.daysTooMany }, TRIAL_DAYS_MAX);

/**
 * PUT /admin/users/{id}: the admin edit form of docs/PRODUCT.md#admin-edit. Names and
 * e-mail are required; plan, requests and trial days may be left out (kept).
 */
export const adminUserUpdateSchema = z.object({
  first_name: requiredText(ADMIN_TEXTS.firstName, NAME_MAX, `Le prénom est trop long (${NAME_MAX} caractères au plus)`),
  last_name: requiredText(ADMIN_TEXTS.lastName, NAME_MAX, `Le nom est trop long (${NAME_MAX} caractères au plus)`),
  email: emailField,
  subscription_type: planField.optional(),
  remaining_queries: queriesField.optional(),
  trial_days_remaining: trialDaysField.optional(),
});

function positiveIntQuery(message: string, max: number) {
  return z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(1, message).max(max, message));
}

export const listUsersQuerySchema = z.object({
  page: positiveIntQuery(ADMIN_TEXTS.page, 1_000_000_000).optional(),
  per_page: positiveIntQuery(ADMIN_TEXTS.perPage, MAX_PER_PAGE).optional(),
  q: z.string().trim().max(100, ADMIN_TEXTS.search).optional(),
  plan: planField.optional(),
});

export const usageQuerySchema = z.object({
  days: positiveIntQuery(`Le nombre de jours doit être un entier entre 1 et ${USAGE_MAX_DAYS}`, USAGE_MAX_DAYS).optional(),
});

export const userIdParamSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,12}$/, ADMIN_TEXTS.userId)
    .transform(Number),
});

/** The same schemas outside HTTP (the CLI): the first issue becomes AppError VALIDATION with its French text. */
export function parseInput<T extends ZodType>(schema: T, value: unknown): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new AppError("VALIDATION", r.error.issues[0]?.message);
  return r.data;
}
