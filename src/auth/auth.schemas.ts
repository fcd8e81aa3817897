import { z } from "zod";
import { FORBIDDEN_CHARS_MESSAGE } from "../lib/validate.ts";

/**
 * Request bodies of /api/auth, with the French messages of docs/PRODUCT.md#register.
 * Names are NFC-normalised and trimmed; control and bidi-override characters
 * are refused so a name cannot break a mail or disguise itself.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose.
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

function personName(required: string) {
  return z
    .string({ error: required })
    .normalize("NFC")
    .trim()
    .min(1, required)
    .max(100, "Ce champ est trop long (100 caractères au plus).")
    .refine((v) => !FORBIDDEN_CHARS.test(v), FORBIDDEN_CHARS_MESSAGE);
}

/** Trimmed, lower-cased, then checked as an address (the stored form, docs/DECISIONS.md). */
function emailField(required: string) {
  return z
    .string({ error: required })
    .trim()
    .toLowerCase()
    .min(1, required)
    .max(254, "Format d'email invalide")
    .pipe(z.email({ error: "Format d'email invalide" }));
}

/** Login and 2FA request: non-blank only, so a malformed address is just an unknown one (same 401). */
const loginEmail = z.string({ error: "L'email est requis" }).trim().toLowerCase().min(1, "L'email est requis").max(254, "Email ou mot de passe incorrect.");

/** Long enough for any passphrase, short enough that argon2 is never handed megabytes. */
const PASSWORD_MAX = 256;
const passwordTooLong = `Le mot de passe est trop long (${PASSWORD_MAX} caractères au plus).`;

const loginPassword = z.string({ error: "Le mot de passe est requis" }).min(1, "Le mot de passe est requis").max(PASSWORD_MAX, passwordTooLong);

export const registerSchema = z.object({
  email: emailField("L'email est requis"),
  password: z
    .string({ error: "Le mot de passe est requis" })
    .min(1, "Le mot de passe est requis")
    .min(6, "Le mot de passe doit contenir au moins 6 caractères")
    .max(PASSWORD_MAX, passwordTooLong),
  first_name: personName("Le prénom est requis"),
  last_name: personName("Le nom est requis"),
});

export const credentialsSchema = z.object({ email: loginEmail, password: loginPassword });

/** The id of the login's 202, optional: the spec's client sends none (docs/SECURITY.md, "Throttling"). */
const pendingLogin = z
  .string({ error: "Identifiant de connexion invalide." })
  .trim()
  .min(16, "Identifiant de connexion invalide.")
  .max(200, "Identifiant de connexion invalide.")
  .optional();

export const twoFactorRequestSchema = credentialsSchema.extend({ pending_login: pendingLogin });

const CODE_MESSAGE = "Veuillez saisir un code à 6 chiffres";

export const verifySchema = z.object({
  email: loginEmail,
  code: z
    .string({ error: CODE_MESSAGE })
    .trim()
    .regex(/^\d{6}$/, CODE_MESSAGE),
  remember_device: z.boolean({ error: "remember_device doit valoir true ou false." }).optional().default(false),
  pending_login: pendingLogin,
});

export const forgotSchema = z.object({ email: emailField("Veuillez saisir votre adresse email") });

/** The reset form's rules (docs/PRODUCT.md#password-reset), same texts as web/i18n/fr.ts. */
export const newPasswordSchema = z
  .string({ error: "Le mot de passe est requis" })
  .min(8, "Le mot de passe doit contenir au moins 8 caractères")
  .max(PASSWORD_MAX, passwordTooLong)
  .regex(/\p{Ll}/u, "Le mot de passe doit contenir au moins une lettre minuscule")
  .regex(/\p{Lu}/u, "Le mot de passe doit contenir au moins une lettre majuscule")
  .regex(/\d/, "Le mot de passe doit contenir au moins un chiffre");

const resetTokenField = z
  .string({ error: "Ce lien de réinitialisation est invalide ou a expiré." })
  .trim()
  .min(1, "Ce lien de réinitialisation est invalide ou a expiré.")
  .max(200, "Ce lien de réinitialisation est invalide ou a expiré.");

export const resetSchema = z.object({ token: resetTokenField, new_password: newPasswordSchema });

export const resetTokenParam = z.object({ token: resetTokenField });
