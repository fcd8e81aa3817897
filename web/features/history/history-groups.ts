import { frData } from "../../i18n/fr-data.ts";
import type { ConversationSummary } from "../../lib/api-types.ts";

export type GroupKey = keyof typeof frData.history.groups;

/** A row of the history list: a date heading, or a conversation. */
export type HistoryRow = { kind: "group"; key: GroupKey; label: string } | { kind: "item"; item: ConversationSummary };

const DAY = 86_400_000;

/** Which date heading a conversation goes under, by calendar days in the user's time zone. */
export function dateGroup(updatedAt: string, now: Date): GroupKey {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const t = new Date(updatedAt).getTime();
  if (t >= midnight) return "today";
  if (t >= midnight - DAY) return "yesterday";
  if (t >= midnight - 6 * DAY) return "week";
  if (t >= midnight - 29 * DAY) return "month";
  return "older";
}

/**
 * The rows to draw: a heading before the first conversation of each date
 * group (the list comes newest first, so each group is one run). Search
 * results come by rank, not date: no headings there.
 */
export function historyRows(items: readonly ConversationSummary[], now: Date, grouped: boolean): HistoryRow[] {
  const rows: HistoryRow[] = [];
  let current: GroupKey | null = null;
  for (const item of items) {
    if (grouped) {
      const key = dateGroup(item.updated_at, now);
      if (key !== current) rows.push({ kind: "group", key, label: frData.history.groups[key] });
      current = key;
    }
    rows.push({ kind: "item", item });
  }
  return rows;
}
