import { mkdir, readFile, writeFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import path from "node:path";
import type { TaskAcceptance, TaskResult, VideoTaskRecord } from "../api/provider";
import { isTerminalStatus } from "../api/provider";
import { imageExtensions } from "../api/image-types";
import type { SandboxConfig } from "./config";
import type { ReferenceImage } from "./request-body";
import type { RenderVideoOptions } from "./render-video";
import type { StoredTask } from "./task-store";
import { TaskStore } from "./task-store";
import { deliverWebhook } from "./webhooks";

/** A prompt containing this ends its video task `failed` with the spec's documented `timeout` code. */
export const FAIL_TRIGGER = "sandbox:fail";

export interface VideoTaskInput {
  prompt: string;
  model: string;
  size?: string;
  webhookUrl?: string;
  references: ReferenceImage[];
}

export interface TaskManagerDependencies {
  renderVideo: (options: RenderVideoOptions) => Promise<unknown>;
  /** Absolute URL of a file the sandbox serves from <mediaDir>/files. */
  fileUrl: (fileName: string) => string;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

/**
 * The video task state machine: pending → processing → success | failed.
 * A task waits `pendingMs` in pending, then for a free render slot; it stays in processing at least
 * `processingMs`. Records persist on disk, and unfinished tasks resume after a restart.
 */
export class TaskManager {
  private readonly tasks = new Map<string, StoredTask>();
  private readonly store: TaskStore;
  private readonly queue: string[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly shutdown = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();
  private running = 0;
  private lastId = 0n;

  constructor(
    private readonly config: SandboxConfig,
    private readonly dependencies: TaskManagerDependencies,
  ) {
    this.store = new TaskStore(config.mediaDir);
  }

  /** Loads persisted tasks; unfinished ones start over from pending, undelivered webhooks are sent again. */
  async resume(): Promise<void> {
    for (const task of await this.store.loadAll()) {
      this.tasks.set(task.id, task);
      if (BigInt(task.id) > this.lastId) this.lastId = BigInt(task.id);
      if (!isTerminalStatus(task.status)) {
        task.status = "pending";
        this.schedulePickup(task.id);
      } else if (task.webhookUrl && !task.webhookDelivered) {
        this.track(this.sendWebhook(task));
      }
    }
  }

  async submit(input: VideoTaskInput): Promise<TaskAcceptance> {
    const id = this.nextId();
    const inputFiles = await this.saveInputs(id, input.references);
    const task: StoredTask = {
      id,
      model: input.model,
      prompt: input.prompt,
      size: input.size ?? null,
      created: Math.floor(Date.now() / 1000),
      status: "pending",
      webhookUrl: input.webhookUrl ?? null,
      inputFiles,
      output: null,
      error: null,
      webhookDelivered: false,
    };
    this.tasks.set(id, task);
    await this.store.save(task);
    this.schedulePickup(id);
    return { id, status: "pending", message: `Task ${id} is queued. Query GET /api/ai/videos/${id} for its status.` };
  }

  get(id: string): VideoTaskRecord | null {
    const task = this.tasks.get(id);
    if (!task) return null;
    const succeeded = task.status === "success" && task.output;
    return {
      id: task.id,
      object: "video",
      created: task.created,
      model: task.model,
      status: task.status,
      data: succeeded && task.output
        ? [{ url: this.dependencies.fileUrl(task.output.video), cover_url: this.dependencies.fileUrl(task.output.cover) }]
        : [],
      error: task.status === "failed" ? task.error : null,
    };
  }

  /** Stops timers, renders and webhook retries, and waits for them to settle. */
  async close(): Promise<void> {
    this.shutdown.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private nextId(): string {
    const candidate = BigInt(Date.now()) * 1000n;
    this.lastId = candidate > this.lastId ? candidate : this.lastId + 1n;
    return this.lastId.toString();
  }

  private async saveInputs(id: string, references: ReferenceImage[]): Promise<string[]> {
    const directory = path.join(this.config.mediaDir, "inputs");
    await mkdir(directory, { recursive: true });
    const names: string[] = [];
    for (const [index, reference] of references.entries()) {
      const name = `${id}-${index}.${imageExtensions[reference.mime]}`;
      await writeFile(path.join(directory, name), reference.bytes);
      names.push(name);
    }
    return names;
  }

  private schedulePickup(id: string): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.queue.push(id);
      this.startQueued();
    }, this.config.pendingMs);
    this.timers.add(timer);
  }

  private startQueued(): void {
    while (this.running < this.config.videoConcurrency && this.queue.length > 0 && !this.shutdown.signal.aborted) {
      const id = this.queue.shift();
      const task = id ? this.tasks.get(id) : undefined;
      if (!task || task.status !== "pending") continue;
      this.running++;
      this.track(
        this.process(task).finally(() => {
          this.running--;
          this.startQueued();
        }),
      );
    }
  }

  private async process(task: StoredTask): Promise<void> {
    task.status = "processing";
    await this.store.save(task);
    const minimumTime = sleep(this.config.processingMs, this.shutdown.signal);
    let outcome: Pick<StoredTask, "status" | "output" | "error">;
    if (task.prompt.includes(FAIL_TRIGGER)) {
      await minimumTime;
      outcome = { status: "failed", output: null, error: { code: "timeout", message: "The task timed out before the video was ready." } };
    } else {
      outcome = await this.render(task);
      await minimumTime;
    }
    // Shut down mid-task: leave it processing on disk so the next start resumes it.
    if (this.shutdown.signal.aborted) return;
    Object.assign(task, outcome);
    await this.store.save(task);
    this.dependencies.log("video task finished", { taskId: task.id, status: task.status });
    // Delivered on its own: a slow or silent receiver must not hold this render slot.
    if (task.webhookUrl) this.track(this.sendWebhook(task));
  }

  private async render(task: StoredTask): Promise<Pick<StoredTask, "status" | "output" | "error">> {
    const output = { video: `video-${task.id}.mp4`, cover: `video-${task.id}-cover.png` };
    const filesDir = path.join(this.config.mediaDir, "files");
    try {
      const frames = await Promise.all(
        task.inputFiles.map(async (name) => new Uint8Array(await readFile(path.join(this.config.mediaDir, "inputs", name)))),
      );
      await this.dependencies.renderVideo({
        prompt: task.prompt,
        size: task.size ?? undefined,
        frames,
        durationSeconds: this.config.videoDurationSeconds,
        outputPath: path.join(filesDir, output.video),
        coverPath: path.join(filesDir, output.cover),
        signal: this.shutdown.signal,
      });
      return { status: "success", output, error: null };
    } catch (error) {
      if (this.shutdown.signal.aborted) return { status: "processing", output: null, error: null };
      this.dependencies.log("video render failed", { taskId: task.id, error: String(error) });
      return { status: "failed", output: null, error: { code: "generation_failed", message: "The video could not be generated." } };
    }
  }

  private async sendWebhook(task: StoredTask): Promise<void> {
    if (!task.webhookUrl) return;
    const outcome = await deliverWebhook(task.webhookUrl, this.taskResult(task), {
      attempts: this.config.webhookAttempts,
      retryBaseMs: this.config.webhookRetryBaseMs,
      timeoutMs: this.config.webhookTimeoutMs,
      signal: this.shutdown.signal,
      log: this.dependencies.log,
    });
    if (outcome.delivered || !this.shutdown.signal.aborted) {
      // Given up after every retry counts as done too: the receiver can still poll.
      task.webhookDelivered = true;
      await this.store.save(task);
    }
  }

  private taskResult(task: StoredTask): TaskResult {
    const success = task.status === "success" && task.output;
    return {
      id: task.id,
      object: "task_result",
      created: Math.floor(Date.now() / 1000),
      status: success ? "success" : "failed",
      result: {
        images: success && task.output ? [{ fileUrl: this.dependencies.fileUrl(task.output.video), fileType: "mp4" }] : [],
      },
      error: success ? null : (task.error?.message ?? "The task failed."),
    };
  }

  private track(promise: Promise<unknown>): void {
    const tracked = promise.catch((error: unknown) => this.dependencies.log("sandbox task error", { error: String(error) }));
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}

/** Resolves after `ms`, or at once when the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}
