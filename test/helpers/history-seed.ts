import { appendMessages, insertConversation } from "../../src/chat/chat.queries.ts";
import type { Db } from "../../src/db/client.ts";
import { transaction } from "../../src/db/transaction.ts";

const TOPICS = ["jardin", "impôts", "voyage", "cuisine", "santé", "informatique", "histoire", "musique", "sport", "droit"];
const FINAL_ANSWER_BYTES = 1_500;

/**
 * A long history written through the chat's own queries (so the search index
 * follows): `n` conversations of one question and one consolidated answer,
 * one every `stepMs` back from `now`, newest last. Conversation i asks about
 * TOPICS[i % 10] and its answer alone holds the word `réponse<i>`.
 */
export async function seedHistory(db: Db, userId: number, n: number, now = new Date(), stepMs = 2 * 3_600_000): Promise<number[]> {
  const ids: number[] = [];
  const filler = "Les modèles s'accordent sur l'essentiel et divergent sur les détails. ".repeat(Math.ceil(FINAL_ANSWER_BYTES / 70));
  await transaction(db, async (tx) => {
    for (let i = n - 1; i >= 0; i--) {
      const at = new Date(now.getTime() - i * stepMs);
      const question = `Question ${i} : que faut-il savoir sur ${TOPICS[i % TOPICS.length]} cette année ?`;
      const c = await insertConversation(tx, userId, question.slice(0, 50), at);
      await appendMessages(
        tx,
        c.id,
        [
          { sender: "user", messageType: null, content: question },
          {
            sender: "assistant",
            messageType: "final_response",
            content: `## Réponse consolidée\nréponse${i} : ${filler}\n\n## Sources\n- https://example.fr/${i}`,
            resultData: { final_response: "…", primary_ai: "GPT-4", available_ais: ["GPT-4", "Claude Opus 4.1", "Mistral Large"], models: [] },
          },
        ],
        at,
      );
      ids.push(c.id);
    }
  });
  return ids;
}
