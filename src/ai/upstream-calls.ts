/**
 * The model calls in flight in this process, against the number Bun's HTTP
 * client runs at once (BUN_CONFIG_MAX_HTTP_REQUESTS; `unisson serve` sets
 * 8192 unless the operator set another value: src/system/http-client-cap.ts).
 * A call started when the client was already full waits in Bun's queue,
 * sending nothing: if it is then abandoned as silent, that silence was this
 * server's, not the model's, and must not open the model's breaker
 * (« maintenance » for everyone, issue 46).
 */
export class UpstreamCalls {
  #inFlight = 0;

  constructor(readonly cap: number) {}

  /** One call starts: whether it found the client full, and its end (idempotent). */
  begin(): { queued: boolean; end: () => void } {
    const queued = this.#inFlight >= this.cap;
    this.#inFlight++;
    let ended = false;
    return {
      queued,
      end: () => {
        if (ended) return;
        ended = true;
        this.#inFlight--;
      },
    };
  }
}
