import type { ReactNode } from "react";
import { CloseIcon, FileIcon } from "../../../components/ui/icons.tsx";
import { frAttach } from "../../../i18n/fr-attach.ts";
import { formatSize, kindLabel } from "./attachment-rules.ts";
import type { PendingFile } from "./use-attachments.ts";

const t = frAttach;

/** What every chip shows: the thumbnail (or a file icon), the name, the type and the size. */
export function ChipFace({ name, kind, size, thumbnail }: { name: string; kind: string; size: number; thumbnail: string | null }) {
  return (
    <>
      {thumbnail ? <img className="chip-thumb" src={thumbnail} alt="" width={40} height={40} /> : <FileIcon size={22} />}
      <span className="chip-text">
        <span className="chip-name" title={name}>
          {name}
        </span>
        <span className="chip-meta">
          {kindLabel(kind)} · {formatSize(size)}
        </span>
      </span>
    </>
  );
}

/** A file of the message being written: a spinner while it uploads, and its remove button. */
export function PendingChip({ file, onRemove }: { file: PendingFile; onRemove(): void }) {
  return (
    <li className={`attachment-chip${file.stored ? "" : " uploading"}`}>
      <ChipFace name={file.name} kind={file.kind} size={file.size} thumbnail={file.preview} />
      {!file.stored && <span className="chip-spinner" role="status" aria-label={t.uploading(file.name)} />}
      <button type="button" className="icon-button chip-remove" aria-label={t.remove(file.name)} onClick={onRemove}>
        <CloseIcon size={16} />
      </button>
    </li>
  );
}

/** The row of chips (a list, named for screen readers). */
export function ChipList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul className="attachment-chips" aria-label={label}>
      {children}
    </ul>
  );
}
