import type { MessageType } from "../db/schema/index.ts";
import type { MessageRow } from "./chat.queries.ts";

/** The message of docs/PRODUCT.md#messages; a user's own message has message_type null. */
export type PublicMessage = {
  id: number;
  content: string;
  sender: "user" | "assistant";
  message_type: MessageType | null;
  timestamp: string;
  result_data: Record<string, unknown> | null;
};

export function toPublicMessage(m: MessageRow): PublicMessage {
  return {
    id: m.id,
    content: m.content,
    sender: m.sender,
    message_type: m.messageType,
    timestamp: m.createdAt.toISOString(),
    result_data: m.resultData ?? null,
  };
}

/** Titles are the first 50 characters of the first message, as the history list shows them. */
export function titleFrom(message: string): string {
  const flat = message.replace(/\s+/g, " ").trim();
  return flat.length > 50 ? `${flat.slice(0, 50).trimEnd()}…` : flat;
}
