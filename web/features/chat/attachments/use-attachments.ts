import { useCallback, useEffect, useRef, useState } from "react";
import { type AttachmentLimits, checkFiles, isImageKind, kindOf, type MessageAttachment } from "./attachment-rules.ts";
import { UploadError, uploadAttachment } from "./attachments.api.ts";

/** One file of the message being written: uploading (a spinner on its chip) or stored (its id). */
export type PendingFile = {
  key: number;
  name: string;
  size: number;
  kind: string;
  /** An object URL of the picked image, for the chip's thumbnail (revoked when the chip goes). */
  preview: string | null;
  stored: MessageAttachment | null;
};

let nextKey = 1;

/**
 * The files of the message being written. Each is checked in the page
 * (type, size, how many), then uploaded at once so sending waits only for
 * what is still on its way; a refusal, the page's or the server's, is a
 * French message naming the file, and its chip goes.
 */
export function useAttachments(limits: AttachmentLimits) {
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const uploads = useRef(new Map<number, AbortController>());
  const filesRef = useRef(files);
  filesRef.current = files;

  const drop = useCallback((key: number) => {
    uploads.current.get(key)?.abort();
    uploads.current.delete(key);
    setFiles((all) => {
      const gone = all.find((f) => f.key === key);
      if (gone?.preview) URL.revokeObjectURL(gone.preview);
      return all.filter((f) => f.key !== key);
    });
  }, []);

  const upload = useCallback(
    async (file: File, key: number) => {
      const ctl = new AbortController();
      uploads.current.set(key, ctl);
      try {
        const stored = await uploadAttachment(file, ctl.signal);
        if (ctl.signal.aborted) return;
        setFiles((all) => all.map((f) => (f.key === key ? { ...f, stored } : f)));
      } catch (err) {
        if (ctl.signal.aborted) return;
        drop(key);
        setErrors((e) => [...e, err instanceof UploadError ? err.message : String(err)]);
      } finally {
        if (uploads.current.get(key) === ctl) uploads.current.delete(key);
      }
    },
    [drop],
  );

  const add = useCallback(
    (picked: File[]) => {
      if (picked.length === 0) return;
      const { take, errors } = checkFiles(picked, filesRef.current.length, limits);
      setErrors(errors);
      const added = take.map((file): PendingFile => {
        const kind = kindOf(file);
        return { key: nextKey++, name: file.name, size: file.size, kind, preview: isImageKind(kind) ? URL.createObjectURL(file) : null, stored: null };
      });
      filesRef.current = [...filesRef.current, ...added];
      setFiles(filesRef.current);
      added.forEach((f, i) => void upload(take[i] as File, f.key));
    },
    [limits, upload],
  );

  /** After the message was taken: the chips go (the message shows its own). */
  const clear = useCallback(() => {
    for (const f of filesRef.current) if (f.preview) URL.revokeObjectURL(f.preview);
    filesRef.current = [];
    setFiles([]);
    setErrors([]);
  }, []);

  // Leaving the page: stop what is still uploading and free the previews.
  useEffect(
    () => () => {
      for (const ctl of uploads.current.values()) ctl.abort();
      for (const f of filesRef.current) if (f.preview) URL.revokeObjectURL(f.preview);
    },
    [],
  );

  const uploading = files.some((f) => !f.stored);
  const stored = files.flatMap((f) => (f.stored ? [f.stored] : []));
  return { files, errors, add, remove: drop, clear, dismissErrors: () => setErrors([]), uploading, stored };
}

export type AttachmentsState = ReturnType<typeof useAttachments>;
