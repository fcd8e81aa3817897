import { z } from "zod";

const id = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message);

/** POST /api/shares: which conversation, and whether each model's own answer is in the copy (off unless ticked). */
export const createShareBody = z.object({
  conversation_id: id("Identifiant de conversation invalide."),
  include_models: z.boolean({ error: "« Inclure les réponses de chaque modèle » doit valoir true ou false." }).default(false),
});

export const shareParam = z.object({ id: id("Identifiant de lien invalide.") });
