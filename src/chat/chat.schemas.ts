import { z } from "zod";
import { FORBIDDEN_CHARS_MESSAGE } from "../lib/validate.ts";

/** Longest question accepted: long enough for a pasted text, short enough for six prompts and a synthesis. */
export const MAX_MESSAGE_CHARS = 8_000;

const id = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message);

// A NUL is refused before the schema (src/lib/validate.ts).
const messageText = z
  .string({ error: "Le message ne peut pas être vide." })
  .trim()
  .min(1, "Le message ne peut pas être vide.")
  .max(MAX_MESSAGE_CHARS, `Le message est trop long (${MAX_MESSAGE_CHARS} caractères au plus).`);

const ASK_ID_MESSAGE = "« ask_id » doit être un identifiant de 8 à 64 caractères (lettres, chiffres, - ou _).";
const askId = z.string({ error: ASK_ID_MESSAGE }).regex(/^[A-Za-z0-9_-]{8,64}$/, ASK_ID_MESSAGE);

export const chatBody = z.object({
  conversation_id: z.union([id("Identifiant de conversation invalide."), z.null()]).optional(),
  message: messageText,
  /** Ids of the user's uploads not sent yet (POST /api/attachments); how many is checked against ATTACHMENTS_PER_MESSAGE. */
  attachments: z.array(id("Identifiant de pièce jointe invalide."), { error: "« attachments » doit être une liste d'identifiants." }).max(100).optional(),
  /** Start the run while the clarifier decides (the page does; src/chat/chat.service.ts, askWithRunStarted). */
  start_run: z.boolean({ error: "« start_run » doit valoir true ou false." }).optional(),
  /** The page's name for this ask, for « Arrêter » before /chat answers (POST /chat/stop; src/chat/pending-asks.ts). */
  ask_id: askId.optional(),
  /** Search the web and give the council the same sources (issue 45); offered when GET /status says `web_search.available`. */
  web_search: z.boolean({ error: "« web_search » doit valoir true ou false." }).optional(),
});

/** POST /chat/stop: the ask to stop. */
export const chatStopBody = z.object({ ask_id: askId });

/** POST /conversation/{id}/edit: the last question, edited. */
export const editBody = z.object({ message: messageText });

export const versionParam = z.object({
  id: id("Identifiant de conversation invalide."),
  group: id("Version introuvable."),
});

const versionMessage = "Le numéro de version doit être un entier positif.";
export const versionBody = z.object({
  version: z.number({ error: versionMessage }).int(versionMessage).positive(versionMessage).max(1_000_000, versionMessage),
});

export const processBody = z.object({
  conversation_id: id("Identifiant de conversation invalide."),
});

export const conversationParam = z.object({
  id: id("Identifiant de conversation invalide."),
});

/** Longest search text read; the words beyond the first eight are ignored anyway. */
const MAX_SEARCH_CHARS = 200;
const HISTORY_PAGE = { default: 50, max: 200 } as const;

const limitMessage = `La limite doit être un nombre entre 1 et ${HISTORY_PAGE.max}.`;

/** GET /history: no parameters = the first page, as the spec's client asks for it. */
export const historyQuery = z.object({
  limit: z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(HISTORY_PAGE.max, limitMessage).default(HISTORY_PAGE.default),
  cursor: z
    .string()
    .regex(/^\d{1,15}\.\d{1,15}$/, "Curseur de pagination invalide.")
    .optional(),
  q: z.string().trim().max(MAX_SEARCH_CHARS, `La recherche est trop longue (${MAX_SEARCH_CHARS} caractères au plus).`).optional(),
});

export const exportQuery = z.object({
  format: z.enum(["md", "json"], { error: "Format d'export invalide (md ou json)." }).default("md"),
});

/** Longest conversation title a user may give (docs/PRODUCT.md#history). */
export const MAX_TITLE_CHARS = 200;

/** PATCH /conversation/{id}: line breaks and tabs become spaces, so a title stays on one line. */
export const renameBody = z.object({
  title: z
    .string({ error: "Le titre doit être un texte." })
    .transform((t) => t.replace(/\s+/g, " ").trim())
    .pipe(
      z
        .string()
        .min(1, "Le titre ne peut pas être vide.")
        .max(MAX_TITLE_CHARS, `Le titre est trop long (${MAX_TITLE_CHARS} caractères au plus).`)
        .refine((t) => !/\p{Cc}/u.test(t), FORBIDDEN_CHARS_MESSAGE),
    ),
});
