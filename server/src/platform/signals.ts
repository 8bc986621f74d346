/**
 * In-process wake-ups for background workers (README "Events and webhooks", "Guarantees").
 *
 * Workers always poll (`TASKSPACE_WEBHOOKS_POLL_MS`), so a missed signal only delays work; a
 * signal makes them look at once. Topics:
 * - `events`: new rows may be in the outbox (raised after every API write request).
 * - `runs`: an automation run was recorded, changed or journalled a step (for inbound calls waiting
 *   on their response, and live update streams).
 * - `deliveries`: the leader queued webhook deliveries in another process (told by `NOTIFY`) for
 *   this process's delivery worker to claim.
 * - `mail`: a mail was queued in this process (modules/mail/outbox.ts) for its mail sender; the
 *   senders of other processes find it at their next poll (`TASKSPACE_MAIL_POLL_MS`).
 */
export type SignalTopic = 'events' | 'runs' | 'deliveries' | 'mail';

/** A tiny topic-based notifier. Listeners run on a later tick, at most once per burst of notifications. */
export class Signals {
  private readonly listeners = new Map<SignalTopic, Set<() => void>>();
  private readonly scheduled = new Set<SignalTopic>();

  /** Wakes the listeners of `topic` (coalesced; never throws). */
  notify(topic: SignalTopic): void {
    if (this.scheduled.has(topic) || !this.listeners.get(topic)?.size) return;
    this.scheduled.add(topic);
    setImmediate(() => {
      this.scheduled.delete(topic);
      for (const listener of this.listeners.get(topic) ?? []) {
        try {
          listener();
        } catch {
          // a listener's failure must not stop the others
        }
      }
    });
  }

  /** Adds a listener; returns the function that removes it. */
  on(topic: SignalTopic, listener: () => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(listener);
    return () => set!.delete(listener);
  }
}
