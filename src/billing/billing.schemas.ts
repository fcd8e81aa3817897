import { z } from "zod";
import { PRODUCT_TYPES } from "../db/schema/index.ts";

const productType = z.enum(PRODUCT_TYPES, { error: "Offre inconnue." });

export const productParam = z.object({ product_type: productType });

export const checkoutBody = z.object({
  product_type: productType,
  is_annual: z.boolean({ error: "Le champ is_annual doit valoir true ou false." }).default(false),
  origin_url: z
    .string({ error: "L'adresse de retour est requise." })
    .trim()
    .min(1, "L'adresse de retour est requise.")
    .max(2048, "L'adresse de retour est trop longue."),
  promo_code: z.string({ error: "Le code promo doit être un texte." }).trim().max(64, "Le code promo est trop long.").nullish(),
});

/** Stripe session ids are `cs_...`; anything else is refused before any lookup. */
export const sessionParam = z.object({
  session_id: z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, "Identifiant de session de paiement invalide."),
});

export const changeBody = z.object({
  target_subscription_type: z.enum(["basic", "pro", "expired"], { error: "Forfait cible invalide : basic, pro ou expired." }),
  target_billing_cycle: z.enum(["monthly", "annual"], { error: "Cycle de facturation invalide : monthly ou annual." }).nullish(),
  user_reason: z.string({ error: "La raison doit être un texte." }).trim().max(1000, "La raison est trop longue (1000 caractères au plus).").nullish(),
});

export const promoBody = z.object({
  code: z.string({ error: "Veuillez saisir un code." }).trim().min(1, "Veuillez saisir un code.").max(64, "Ce code est trop long."),
});
