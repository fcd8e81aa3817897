import { useEffect, useRef, useState } from "react";

/** Copies a text to the clipboard; `copied` stays true for 2 s so the button can say so. A refused clipboard changes nothing: the text is on screen, selectable. */
export function useCopy(text: string) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard refused (permissions, insecure context).
    }
  }
  return { copied, copy };
}
