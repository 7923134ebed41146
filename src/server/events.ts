import type { Generation } from "../api/studio";

export type StudioEvent = { type: "generation"; generation: Generation } | { type: "deleted"; id: string };
type Listener = (event: StudioEvent) => void;

/** In-process fan-out of ledger changes to the server-sent event streams. */
export class StudioEvents {
  private readonly listeners = new Set<Listener>();

  publishGeneration(generation: Generation): void {
    this.emit({ type: "generation", generation });
  }

  publishDeleted(id: string): void {
    this.emit({ type: "deleted", id });
  }

  /** Returns the function that unsubscribes. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  private emit(event: StudioEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
