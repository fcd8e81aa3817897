import { z } from "zod";
import { verifySchema } from "../auth/auth.schemas.ts";

export const deleteAccountSchema = z.object({
  password: z.string({ error: "Veuillez saisir votre mot de passe pour confirmer." }).min(1, "Veuillez saisir votre mot de passe pour confirmer.").max(200),
  code: verifySchema.shape.code.optional(),
});
