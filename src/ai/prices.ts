import type { BuiltinKey } from "../db/schema/council.ts";

/** Euros per million tokens, input and output. */
export type Price = { inEur: number; outEur: number };

/**
 * Public list prices of each default model id (USD, November 2025), in euros
 * at 0.87 €/$: gpt-4o $2.50/$10, claude-opus-4-1 $15/$75, claude-3-haiku
 * $0.25/$1.25, gemini-2.5-pro $1.25/$10 (prompts under 200k tokens),
 * mistral-large-latest $2/$6, sonar-pro $3/$15 (request fees not counted).
 * An operator who changes a model id or gets another rate sets AI_PRICE_<KEY>
 * or the member's prices in the council; an added member without prices costs 0.
 */
export const DEFAULT_PRICES: Record<BuiltinKey, Price> = {
  gpt4: { inEur: 2.18, outEur: 8.7 },
  claudeOpus: { inEur: 13.05, outEur: 65.25 },
  claudeHaiku: { inEur: 0.22, outEur: 1.09 },
  geminiPro: { inEur: 1.09, outEur: 8.7 },
  mistralLarge: { inEur: 1.74, outEur: 5.22 },
  sonarPro: { inEur: 2.61, outEur: 13.05 },
};

/** The cost of one call in euros; unknown token counts cost nothing rather than a guess. */
export function callCost(price: Price, tokensIn: number | null, tokensOut: number | null): number {
  return ((tokensIn ?? 0) * price.inEur + (tokensOut ?? 0) * price.outEur) / 1_000_000;
}

/** "2.50,10" -> a Price; throws a French message the config turns into its one line. */
export function parsePrice(text: string): Price {
  const parts = text.split(",").map((p) => Number(p.trim()));
  if (parts.length !== 2 || parts.some((n) => !Number.isFinite(n) || n < 0))
    throw new Error("doit valoir « entrée,sortie » en euros par million de jetons, par exemple 2.18,8.70");
  return { inEur: parts[0]!, outEur: parts[1]! };
}
