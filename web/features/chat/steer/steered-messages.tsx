import type { ReactNode } from "react";
import type { ChatMessage } from "../../../lib/api-types.ts";
import { MessageItem } from "../message-item.tsx";
import type { ChatState } from "../use-chat.ts";
import { MessageActions, StopButton } from "./message-actions.tsx";
import { QuestionEdit } from "./question-edit.tsx";

/**
 * The conversation's messages with their steering: the version switcher
 * « 1/2 » of a question asked again, « Modifier » (an edit box in place of
 * the last question) and « Nouvelle réponse » under the last answer.
 * `editing` is the conversation's: a declined council's notice opens the
 * same edit box (live-run.tsx).
 */
export function SteeredMessages({
  chat,
  onOpen,
  editing,
  setEditing,
}: {
  chat: ChatState;
  onOpen(m: ChatMessage): void;
  editing: number | null;
  setEditing(id: number | null): void;
}) {
  const { steer } = chat;
  const lastQuestion = chat.messages.findLast((m) => m.sender === "user");
  const last = chat.messages.at(-1);
  const byMessage = new Map(steer.versions.map((v) => [v.message_id, v]));
  return (
    <>
      {chat.messages.map((m) =>
        m.id === editing ? (
          <QuestionEdit key={m.id} initial={m.content} onSend={(text) => steer.askAgain(text)} onCancel={() => setEditing(null)} />
        ) : (
          <MessageItem key={m.id} message={m} onOpen={onOpen}>
            <MessageActions
              message={m}
              isLastQuestion={m.id === lastQuestion?.id}
              isLastAnswer={m.id === last?.id}
              version={byMessage.get(m.id)}
              busy={chat.busy}
              onEdit={() => setEditing(m.id)}
              onRegenerate={() => void steer.askAgain()}
              onSwitch={(group, version) => void steer.switchTo(group, version)}
            />
          </MessageItem>
        ),
      )}
    </>
  );
}

/**
 * The reply box, with « Arrêter » in place of its send button while a run
 * goes on: laid over it, the send button kept (hidden) under it, so nothing
 * on the page moves when the run starts or ends.
 */
export function StopOverComposer({ chat, children }: { chat: ChatState; children: ReactNode }) {
  // From the moment the question is sent: while /chat decides (the ask), then while the run goes on.
  const asking = chat.asking.active;
  const running = asking || (chat.live !== null && !chat.live.done);
  const stop = asking ? chat.asking : chat.steer;
  return (
    <div className={`steer-composer${running ? " running" : ""}`}>
      {children}
      {running && <StopButton stopping={stop.stopping} onStop={() => void stop.stop()} />}
    </div>
  );
}
