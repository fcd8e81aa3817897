import { WarningIcon } from "../../../components/ui/icons.tsx";
import { Markdown } from "../markdown.tsx";

/** The stored answer opens with the notice as a quote (for every client); the page shows it as a notice above the answer. */
export function splitNotice(content: string, notice: unknown): { notice: string | null; body: string } {
  if (typeof notice !== "string" || !notice || !content.startsWith("> ")) return { notice: null, body: content };
  const end = content.indexOf("\n\n");
  return { notice, body: end < 0 ? "" : content.slice(end + 2) };
}

export function DegradedNotice({ text }: { text: string }) {
  return (
    <div className="notice notice-degraded" role="note">
      <WarningIcon />
      <div>
        <Markdown text={text} />
      </div>
    </div>
  );
}
