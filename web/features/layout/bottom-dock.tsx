import { type ReactNode, useEffect, useRef } from "react";

/**
 * The bottom of the screen, fixed: the banners, then the conversation's reply
 * box (portalled into `slot` by the chat view). Its height is published as
 * --dock-h so the page keeps that much room below its content: nothing
 * fixed ever covers the footer, the conversation or the header.
 */
export function BottomDock({ banner, onSlot }: { banner: ReactNode; onSlot(el: HTMLDivElement | null): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty("--dock-h", `${Math.ceil(el.getBoundingClientRect().height)}px`);
    publish();
    const ro = new ResizeObserver(publish);
    ro.observe(el);
    return () => {
      ro.disconnect();
      root.style.removeProperty("--dock-h");
    };
  }, []);
  return (
    <div className="bottom-dock" ref={ref}>
      {banner}
      <div className="dock-slot" ref={onSlot} />
    </div>
  );
}
