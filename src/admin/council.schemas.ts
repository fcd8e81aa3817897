import { z } from "zod";
import { PROVIDER_KINDS, type ProviderKind } from "../db/schema/index.ts";

/**
 * What an operator may set on the council (issue 35), from the « Modèles »
 * panel (JSON) and the CLI (`unisson council`, options as strings): the same
 * schemas, the same French messages. Rules that need the stored council (2 to
 * 8 enabled members, unique names, synthesisers among the enabled members)
 * are checked by council-rules.ts against what the change would leave.
 */

export { PROVIDER_KINDS, type ProviderKind };

export const MIN_ENABLED = 2;
export const MAX_ENABLED = 8;
export const TIMEOUT_MIN_MS = 1_000;
export const TIMEOUT_MAX_MS = 600_000;
/** € per million tokens: the dearest model today costs about 75; a thousand is a typo. */
export const PRICE_MAX = 1_000;
const NAME_MAX = 60;
const SPECIALTY_MAX = 120;
const MODEL_MAX = 200;
const URL_MAX = 500;
const KEY_MAX = 500;
const MODERATION_MODEL_MAX = 100;

export const COUNCIL_TEXTS = {
  name: "Le nom du modèle est requis",
  nameTooLong: `Le nom du modèle est trop long (${NAME_MAX} caractères au plus)`,
  specialtyTooLong: `La spécialité est trop longue (${SPECIALTY_MAX} caractères au plus)`,
  provider: `Type de fournisseur inconnu : choisissez parmi ${PROVIDER_KINDS.join(", ")}`,
  model: "L'identifiant du modèle chez le fournisseur est requis",
  modelTooLong: `L'identifiant du modèle est trop long (${MODEL_MAX} caractères au plus)`,
  baseUrl: "L'adresse du fournisseur doit être une URL http:// ou https://",
  baseUrlRequired: "Un serveur compatible OpenAI a besoin de son adresse (base URL)",
  apiKey: "La clé d'API ne peut pas être vide",
  apiKeyTooLong: `La clé d'API est trop longue (${KEY_MAX} caractères au plus)`,
  apiKeySpaces: "La clé d'API ne peut pas contenir d'espace",
  price: (which: string) => `Le prix ${which} doit être un nombre positif ou nul (€ par million de jetons)`,
  priceTooHigh: (which: string) => `Le prix ${which} ne peut pas dépasser ${PRICE_MAX} € par million de jetons`,
  timeout: `Le délai doit être un nombre entier de millisecondes entre ${TIMEOUT_MIN_MS} et ${TIMEOUT_MAX_MS}`,
  boolean: "Valeur attendue : vrai ou faux",
  synthesisers: "Indiquez au moins un synthétiseur",
  synthesiserTwice: (name: string) => `Le modèle « ${name} » figure deux fois parmi les synthétiseurs`,
  nothingToChange: "Rien à modifier : indiquez au moins un champ",
  moderationModel: `Le modèle de modération doit être un identifiant de modèle OpenAI (1 à ${MODERATION_MODEL_MAX} caractères : lettres, chiffres, . _ : -)`,
  tooFewEnabled: `Le conseil doit garder au moins ${MIN_ENABLED} modèles actifs`,
  tooManyEnabled: `Le conseil ne peut pas compter plus de ${MAX_ENABLED} modèles actifs`,
  nameTaken: (name: string) => `Un modèle s'appelle déjà « ${name} »`,
  unknownMember: (name: string) => `Aucun modèle ne s'appelle « ${name} »`,
  synthesiserDisabled: (name: string) => `« ${name} » est désactivé : il ne peut pas écrire la synthèse`,
  lastSynthesiser: (name: string) => `« ${name} » est le dernier synthétiseur actif : choisissez-en un autre avant de le désactiver`,
} as const;

const name = z.string({ error: COUNCIL_TEXTS.name }).trim().min(1, COUNCIL_TEXTS.name).max(NAME_MAX, COUNCIL_TEXTS.nameTooLong);
const specialty = z.string().trim().max(SPECIALTY_MAX, COUNCIL_TEXTS.specialtyTooLong);
const provider = z.enum(PROVIDER_KINDS, { error: COUNCIL_TEXTS.provider });
const model = z.string({ error: COUNCIL_TEXTS.model }).trim().min(1, COUNCIL_TEXTS.model).max(MODEL_MAX, COUNCIL_TEXTS.modelTooLong);

/** "" or null clears the address (the provider's own, or its *_BASE_URL variable). */
const baseUrl = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? null : v),
  z
    .string({ error: COUNCIL_TEXTS.baseUrl })
    .trim()
    .max(URL_MAX, COUNCIL_TEXTS.baseUrl)
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), COUNCIL_TEXTS.baseUrl)
    .nullable(),
);

/** null clears a stored key (a built-in member falls back to its *_API_KEY variable). */
const apiKey = z
  .string({ error: COUNCIL_TEXTS.apiKey })
  .trim()
  .min(1, COUNCIL_TEXTS.apiKey)
  .max(KEY_MAX, COUNCIL_TEXTS.apiKeyTooLong)
  .regex(/^\S+$/, COUNCIL_TEXTS.apiKeySpaces)
  .nullable();

/** A number typed in a form or on a command line may arrive as "2,5" or " 3 ": read it as a number. */
function looseNumber(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim().replace(",", ".");
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : v;
}

function price(which: string) {
  return z.preprocess(
    looseNumber,
    z
      .number({ error: COUNCIL_TEXTS.price(which) })
      .min(0, COUNCIL_TEXTS.price(which))
      .max(PRICE_MAX, COUNCIL_TEXTS.priceTooHigh(which)),
  );
}

const timeoutMs = z.preprocess(
  looseNumber,
  z.number({ error: COUNCIL_TEXTS.timeout }).int(COUNCIL_TEXTS.timeout).min(TIMEOUT_MIN_MS, COUNCIL_TEXTS.timeout).max(TIMEOUT_MAX_MS, COUNCIL_TEXTS.timeout),
);

const flag = z.boolean({ error: COUNCIL_TEXTS.boolean });

const memberFields = {
  name,
  specialty: specialty.optional(),
  provider,
  model,
  base_url: baseUrl.optional(),
  api_key: apiKey.optional(),
  vision: flag.optional(),
  price_in: price("d'entrée").optional(),
  price_out: price("de sortie").optional(),
  timeout_ms: timeoutMs.optional(),
  enabled: flag.optional(),
};

/** A server that only speaks chat completions has no default address to fall back on. */
export function needsBaseUrl(m: { provider?: ProviderKind; base_url?: string | null }) {
  return m.provider === "openai-compatible" && !m.base_url;
}

/** POST /api/admin/council/members, `unisson council add`. */
export const memberAddSchema = z.strictObject(memberFields).refine((m) => !needsBaseUrl(m), { message: COUNCIL_TEXTS.baseUrlRequired, path: ["base_url"] });

/** PATCH /api/admin/council/members/:name, `unisson council set|enable|disable`: any field, at least one. */
export const memberPatchSchema = z
  .strictObject(memberFields)
  .partial()
  .refine((m) => Object.values(m).some((v) => v !== undefined), COUNCIL_TEXTS.nothingToChange);

export type MemberAdd = z.output<typeof memberAddSchema>;
export type MemberPatch = z.output<typeof memberPatchSchema>;

/** PUT /api/admin/council/synthesisers, `unisson council synthesisers "a,b"`: names in order, each once. */
export const synthesisersSchema = z.strictObject({
  names: z
    .array(name, { error: COUNCIL_TEXTS.synthesisers })
    .min(1, COUNCIL_TEXTS.synthesisers)
    .max(MAX_ENABLED, COUNCIL_TEXTS.tooManyEnabled)
    .superRefine((names, ctx) => {
      const twice = names.find((n, i) => names.indexOf(n) !== i);
      if (twice) ctx.addIssue({ code: "custom", message: COUNCIL_TEXTS.synthesiserTwice(twice) });
    }),
});

/** A model id of OpenAI's moderation endpoint (it goes into the request as is); null goes back to DEFAULT_MODERATION_MODEL. */
const moderationModel = z
  .string({ error: COUNCIL_TEXTS.moderationModel })
  .trim()
  .regex(new RegExp(`^[A-Za-z0-9._:-]{1,${MODERATION_MODEL_MAX}}$`), COUNCIL_TEXTS.moderationModel)
  .nullable();

/** PATCH /api/admin/council/settings, `unisson council settings`. */
export const councilSettingsSchema = z
  .strictObject({ peer_review: flag.optional(), clarifier: name.nullable().optional(), moderation_model: moderationModel.optional() })
  .refine((s) => Object.values(s).some((v) => v !== undefined), COUNCIL_TEXTS.nothingToChange);

export type CouncilSettingsPatch = z.output<typeof councilSettingsSchema>;

export const memberNameParamSchema = z.object({ name });
