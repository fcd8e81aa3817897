import { z } from "zod";

/** Longest question accepted: long enough for a pasted text, short enough for six prompts and a synthesis. */
export const MAX_MESSAGE_CHARS = 8_000;

const id = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message);

export const chatBody = z.object({
  conversation_id: z.union([id("Identifiant de conversation invalide."), z.null()]).optional(),
  message: z
    .string({ error: "Le message ne peut pas être vide." })
    .trim()
    .min(1, "Le message ne peut pas être vide.")
    .max(MAX_MESSAGE_CHARS, `Le message est trop long (${MAX_MESSAGE_CHARS} caractères au plus).`),
});

export const processBody = z.object({
  conversation_id: id("Identifiant de conversation invalide."),
});

export const conversationParam = z.object({
  id: id("Identifiant de conversation invalide."),
});
