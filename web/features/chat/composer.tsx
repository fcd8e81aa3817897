import { type KeyboardEvent, useState } from "react";
import { SendIcon } from "../../components/ui/icons.tsx";

/**
 * The question box: Enter sends, Shift+Enter breaks the line (docs/PRODUCT.md#chat-screen).
 * The text is cleared only when the message was taken, so a refusal keeps it.
 */
export function Composer({
  onSend,
  disabled,
  busy,
  label,
  placeholder,
  submitLabel,
  large = false,
}: {
  onSend(text: string): Promise<boolean>;
  disabled: boolean;
  busy: boolean;
  label: string;
  placeholder: string;
  submitLabel: string;
  large?: boolean;
}) {
  const [text, setText] = useState("");

  async function submit() {
    if (disabled || busy || !text.trim()) return;
    const sent = text;
    setText("");
    const taken = await onSend(sent);
    if (!taken) setText((now) => (now === "" ? sent : now));
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  }

  return (
    <form
      className={`composer${large ? " large" : ""}`}
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label className="sr-only" htmlFor={large ? "question" : "reply"}>
        {label}
      </label>
      <textarea
        id={large ? "question" : "reply"}
        value={text}
        rows={large ? 5 : 1}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="primary" disabled={disabled || busy || !text.trim()}>
        <SendIcon /> <span>{submitLabel}</span>
      </button>
    </form>
  );
}
