import { type DragEvent, useEffect, useRef, useState } from "react";

const carriesFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes("Files");

/**
 * Drag and drop of files onto an element: `over` while files hover it (the
 * visible drop zone), `onFiles` with what was dropped. A counter, not a
 * flag: entering a child fires dragleave on the parent first.
 */
export function useDropZone(onFiles: (files: File[]) => void, enabled: boolean) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);

  // A file dropped beside the box would make the browser leave the page to show it: the page keeps it away.
  useEffect(() => {
    if (!enabled) return;
    const keep = (e: globalThis.DragEvent) => {
      if ([...(e.dataTransfer?.types ?? [])].includes("Files")) e.preventDefault();
    };
    window.addEventListener("dragover", keep);
    window.addEventListener("drop", keep);
    return () => {
      window.removeEventListener("dragover", keep);
      window.removeEventListener("drop", keep);
    };
  }, [enabled]);
  const handlers = {
    onDragEnter(e: DragEvent) {
      if (!enabled || !carriesFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setOver(true);
    },
    onDragOver(e: DragEvent) {
      if (!enabled || !carriesFiles(e)) return;
      e.preventDefault(); // makes the element a drop target
      e.dataTransfer.dropEffect = "copy";
    },
    onDragLeave(e: DragEvent) {
      if (!enabled || !carriesFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop(e: DragEvent) {
      depth.current = 0;
      setOver(false);
      if (!enabled || !carriesFiles(e)) return;
      e.preventDefault();
      onFiles([...(e.dataTransfer.files ?? [])]);
    },
  };
  return { over, handlers };
}
