import { isTerminalStatus } from "../api/provider";
import type { GenerationService } from "./generation-service";
import type { Ledger } from "./ledger/ledger";
import type { Logger } from "./logger";

const MIRROR_SWEEP_MS = 30_000;
const MAX_MIRROR_ATTEMPTS = 5;
const MIRRORS_PER_SWEEP = 20;

export interface ReconcilerOptions {
  ledger: Ledger;
  service: GenerationService;
  log: Logger;
  /** The spec's recommended status polling interval. */
  pollIntervalMs: number;
  /** How often the reconciler looks for due work. */
  tickMs?: number;
  maxBackoffMs?: number;
  concurrency?: number;
}

/**
 * Drives every unfinished video task to success or failed from the server side, whether or not a
 * browser is watching: polls each due task (every interval, backing off on errors), fails tasks
 * past their deadline, and retries media that could not be mirrored yet.
 */
export class Reconciler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private readonly failures = new Map<string, number>();
  private readonly mirrorAttempts = new Map<string, number>();
  private readonly startedAt = Date.now();
  private lastMirrorSweep = 0;
  private mirrorSweep: Promise<void> | null = null;

  constructor(private readonly options: ReconcilerOptions) {}

  /** Fails what a previous run left hanging without a provider task, re-mirrors missing media, then ticks. */
  start(): void {
    const { ledger, service } = this.options;
    for (const stale of ledger.listStaleWithoutTask(this.startedAt)) {
      service.failLocally(stale.id, "generation_failed", "The studio restarted before this generation finished. Try again.");
    }
    this.timer = setInterval(() => void this.tick(), this.options.tickMs ?? 1000);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** One pass over due work; overlapping calls share the pass in progress. */
  tick(): Promise<void> {
    this.ticking ??= this.runTick()
      .catch((error: unknown) => this.options.log.error("reconciler pass failed", { error }))
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private async runTick(): Promise<void> {
    const { ledger } = this.options;
    const now = Date.now();
    for (const overdue of ledger.listPastDeadline(now)) await this.expire(overdue.id);
    if (now - this.lastMirrorSweep >= MIRROR_SWEEP_MS) {
      this.lastMirrorSweep = now;
      this.retryMissingMedia();
    }
    const due = ledger.listDueUnfinished(now, 50);
    const concurrency = this.options.concurrency ?? 4;
    for (let start = 0; start < due.length; start += concurrency) {
      await Promise.all(due.slice(start, start + concurrency).map((generation) => this.poll(generation.id)));
    }
  }

  /**
   * A task past its deadline is asked about once more before it is given up on: after a long
   * stop (a restart past the deadline) the provider may well have finished it.
   */
  private async expire(id: string): Promise<void> {
    const latest = await this.options.service.refreshVideo(id).catch(() => null);
    if (latest && isTerminalStatus(latest.status)) return;
    this.options.service.failLocally(id, "timeout", "The video task did not finish in time and was stopped waiting for.");
  }

  private async poll(id: string): Promise<void> {
    const { ledger, service, log, pollIntervalMs } = this.options;
    try {
      await service.refreshVideo(id);
      this.failures.delete(id);
    } catch (error) {
      const failures = (this.failures.get(id) ?? 0) + 1;
      this.failures.set(id, failures);
      const backoff = Math.min(pollIntervalMs * 2 ** failures, this.options.maxBackoffMs ?? 60_000);
      ledger.scheduleNextPoll(id, Date.now() + backoff);
      log.warn("status poll failed; backing off", { generationId: id, failures, retryInMs: backoff, error });
    }
  }

  /**
   * Media that could not be mirrored yet (provider down, server restarted mid-copy) gets a few more
   * tries: one sweep at a time, one generation after another, so a large backlog never floods the
   * provider's file host.
   */
  private retryMissingMedia(): void {
    if (this.mirrorSweep) return;
    const candidates = this.options.ledger
      .listSuccessWithoutMedia()
      .filter((id) => (this.mirrorAttempts.get(id) ?? 0) < MAX_MIRROR_ATTEMPTS)
      .slice(0, MIRRORS_PER_SWEEP);
    this.mirrorSweep = (async () => {
      for (const id of candidates) {
        if (!this.timer) break;
        this.mirrorAttempts.set(id, (this.mirrorAttempts.get(id) ?? 0) + 1);
        await this.options.service.mirrorGeneration(id);
      }
    })()
      .catch((error: unknown) => this.options.log.warn("media retry sweep stopped", { error }))
      .finally(() => {
        this.mirrorSweep = null;
      });
  }
}
