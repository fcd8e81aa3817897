/** The error line of a form or panel, announced to screen readers; nothing when there is no message. */
export function ErrorAlert({ message }: { message: string | null | undefined | false }) {
  if (!message) return null;
  return (
    <p className="alert error" role="alert">
      {message}
    </p>
  );
}
