import { randomBytes } from "node:crypto";
import { openAsBlob } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { HttpError } from "../api/errors";
import { imageGenerationRequestSchema, isTerminalStatus, videoSubmissionRequestSchema, type TaskAcceptance, type VideoTaskRecord } from "../api/provider";
import { describeRequestProblem } from "../api/request-errors";
import type { Generation, GenerationKind } from "../api/studio";
import type { StudioEvents } from "./events";
import { discardReferences, type IngestedRequest } from "./ingest";
import type { Ledger, OutputInput } from "./ledger/ledger";
import type { Logger } from "./logger";
import type { MediaMirror } from "./media-mirror";
import type { UpstreamBody, UpstreamClient } from "./upstream";

export interface GenerationServiceOptions {
  ledger: Ledger;
  upstream: UpstreamClient;
  mirror: MediaMirror;
  events: StudioEvents;
  log: Logger;
  dataDir: string;
  videoDeadlineMs: number;
  pollIntervalMs: number;
  /** Where the provider should POST a task's result, or null when it cannot reach this server. */
  webhookUrl: (token: string) => string | null;
}

/**
 * Every generation goes through here, whichever route asked for it: record first, then call the
 * provider, then record the outcome and mirror the media, so no result is lost even when the
 * browser that asked has gone.
 */
export class GenerationService {
  private readonly refreshes = new Map<string, Promise<Generation | null>>();
  private readonly mirrors = new Map<string, Promise<boolean>>();
  private readonly lastStatusRead = new Map<string, number>();

  constructor(private readonly options: GenerationServiceOptions) {}

  async createImage(request: IngestedRequest): Promise<Generation> {
    const fields = await this.validate(request, imageGenerationRequestSchema);
    const { ledger } = this.options;
    const created = ledger.createGeneration({
      kind: "image",
      status: "processing",
      prompt: fields.prompt,
      model: fields.model,
      params: fields.aspect_ratio ? { aspect_ratio: fields.aspect_ratio } : {},
      references: request.references,
    });
    this.publish(created);

    let providerOutputs: string[];
    try {
      // The provider gets the prompt and model as validated and recorded (trimmed), not as typed.
      const result = await this.options.upstream.generateImage(await this.upstreamBody(request, { prompt: fields.prompt, model: fields.model }));
      providerOutputs = result.data.map((item) => item.url);
    } catch (error) {
      this.fail(created.id, error);
      throw error;
    }
    const outputs = providerOutputs.map((url, index): OutputInput => ({ index, providerUrl: url, providerCoverUrl: null, mime: guessMime(url, "image") }));
    const { generation } = ledger.transition(created.id, "success", { outputs });
    // Announced once the files are ours (mirroring publishes): provider URLs can be short-lived or
    // unreachable from a browser. If mirroring failed for now, the provider's URLs are announced.
    if (!(await this.mirrorGeneration(created.id))) this.publish(generation);
    return ledger.getGeneration(created.id) ?? generation;
  }

  async submitVideo(request: IngestedRequest): Promise<{ generation: Generation; acceptance: TaskAcceptance }> {
    const fields = await this.validate(request, videoSubmissionRequestSchema);
    const { ledger } = this.options;
    const webhookToken = randomBytes(24).toString("base64url");
    const created = ledger.createGeneration({
      kind: "video",
      status: "pending",
      prompt: fields.prompt,
      model: fields.model,
      params: fields.size ? { size: fields.size } : {},
      references: request.references,
      webhookToken,
      deadlineAt: Date.now() + this.options.videoDeadlineMs,
    });
    this.publish(created);

    // A caller's own webhook is forwarded as given; the reconciler's polling keeps the ledger current.
    const ownWebhook = fields.webhookUrl || fields.callback_url ? null : this.options.webhookUrl(webhookToken);
    let acceptance: TaskAcceptance;
    try {
      const validated = { prompt: fields.prompt, model: fields.model };
      acceptance = await this.options.upstream.submitVideo(await this.upstreamBody(request, ownWebhook ? { ...validated, webhookUrl: ownWebhook } : validated));
    } catch (error) {
      this.fail(created.id, error);
      throw error;
    }
    ledger.attachProviderTask(created.id, acceptance.id);
    ledger.scheduleNextPoll(created.id, Date.now() + this.options.pollIntervalMs);
    const generation = ledger.getGeneration(created.id) ?? created;
    this.publish(generation);
    return { generation, acceptance };
  }

  /**
   * Reads the task's status from the provider once (concurrent callers share the read) and records
   * it. A terminal state is final; media is mirrored as soon as outputs are known.
   */
  refreshVideo(id: string, hints: { taskCostTime?: number | null } = {}): Promise<Generation | null> {
    const running = this.refreshes.get(id);
    if (running) return running;
    const refresh = this.readAndRecord(id, hints).finally(() => this.refreshes.delete(id));
    this.refreshes.set(id, refresh);
    return refresh;
  }

  /** When the provider was last asked about this generation's task (Unix ms), if ever since start. */
  lastReadAt(id: string): number | undefined {
    return this.lastStatusRead.get(id);
  }

  /**
   * Copies every output not yet on disk and announces the result; concurrent calls for one
   * generation share the work. True when something was mirrored (and so published).
   */
  mirrorGeneration(id: string): Promise<boolean> {
    const running = this.mirrors.get(id);
    if (running) return running;
    const work = this.mirrorMissing(id).finally(() => this.mirrors.delete(id));
    this.mirrors.set(id, work);
    return work;
  }

  async deleteGeneration(id: string): Promise<boolean> {
    const deleted = this.options.ledger.deleteGeneration(id);
    if (!deleted) return false;
    await this.options.mirror.removeFiles(deleted.filePaths);
    this.options.events.publishDeleted(id);
    return true;
  }

  setFavourite(id: string, favourite: boolean): Generation | null {
    const generation = this.options.ledger.setFavourite(id, favourite);
    if (generation) this.publish(generation);
    return generation;
  }

  /** Marks a generation failed locally (deadline passed, interrupted by a restart). */
  failLocally(id: string, code: string, message: string): void {
    const { changed, generation } = this.options.ledger.transition(id, "failed", { error: { code, message } });
    if (changed) this.publish(generation);
  }

  private async readAndRecord(id: string, hints: { taskCostTime?: number | null }): Promise<Generation | null> {
    const { ledger, upstream } = this.options;
    const current = ledger.getGeneration(id);
    if (!current?.providerTaskId) return current;
    if (isTerminalStatus(current.status) && hints.taskCostTime == null) return current;

    let record: VideoTaskRecord;
    try {
      record = await upstream.getVideo(current.providerTaskId);
    } finally {
      this.lastStatusRead.set(id, Date.now());
    }
    const outputs = record.data.map(
      (item, index): OutputInput => ({ index, providerUrl: item.url, providerCoverUrl: item.cover_url, mime: guessMime(item.url, "video") }),
    );
    const { changed, generation } = ledger.transition(id, record.status, {
      outputs,
      error: record.error,
      taskCostTime: hints.taskCostTime ?? null,
    });
    if (isTerminalStatus(generation.status)) {
      this.lastStatusRead.delete(id);
    } else {
      ledger.scheduleNextPoll(id, Date.now() + this.options.pollIntervalMs);
    }
    if (generation.status !== "success") {
      if (changed) this.publish(generation);
      return generation;
    }
    // A success is announced by the mirror once its media is ours, or with the provider's URLs if it
    // could not be copied yet. The copy runs on its own so that a slow file host never holds up polling.
    void this.mirrorGeneration(id)
      .then((announced) => {
        if (changed && !announced) this.publish(ledger.getGeneration(id) ?? generation);
      })
      .catch((error: unknown) => this.options.log.warn("media mirror failed; will retry", { generationId: id, error }));
    return generation;
  }

  private async mirrorMissing(id: string): Promise<boolean> {
    const { ledger, mirror, log } = this.options;
    const generation = ledger.getGeneration(id);
    if (!generation) return false;
    let latest: Generation | null = null;
    for (const output of ledger.getStoredOutputs(id)) {
      if (output.filePath && output.thumbnailPath) continue;
      try {
        const mirrored = await mirror.mirrorOutput({
          generationId: id,
          index: output.index,
          kind: generation.kind,
          providerUrl: output.providerUrl,
          providerCoverUrl: output.providerCoverUrl,
        });
        latest = ledger.recordMirroredOutput(id, mirrored);
      } catch (error) {
        log.warn("media mirror failed; will retry", { generationId: id, index: output.index, error });
      }
    }
    if (latest) this.publish(latest);
    return latest !== null;
  }

  private async validate<Schema extends z.ZodType<Record<string, unknown>>>(request: IngestedRequest, schema: Schema): Promise<z.infer<Schema>> {
    const urls = request.references.filter((reference) => reference.filePath === null).map((reference) => reference.sourceUrl);
    // JSON keeps `image` exactly as sent, so a number or an object there is refused, not dropped.
    const image = request.format === "json" ? request.fields.image : urls.length > 0 ? urls : undefined;
    const candidate: Record<string, unknown> = { ...request.fields, image };
    const parsed = schema.safeParse(candidate);
    if (parsed.success) return parsed.data;
    await discardReferences(this.options.dataDir, request.references);
    const problem = describeRequestProblem(parsed.error, candidate);
    throw new HttpError(400, problem.code, problem.message);
  }

  /** JSON when every reference is a URL (as the spec has it), multipart streamed from disk when there are files. */
  private async upstreamBody(request: IngestedRequest, extra: Record<string, string>): Promise<UpstreamBody> {
    const fields: Record<string, unknown> = { ...request.fields, ...extra };
    delete fields.image;
    delete fields.image_url;
    const hasFiles = request.references.some((reference) => reference.filePath !== null);
    if (!hasFiles) {
      const urls = request.references.map((reference) => reference.sourceUrl).filter((url): url is string => Boolean(url));
      return { json: urls.length > 0 ? { ...fields, image: urls.length === 1 ? urls[0] : urls } : fields };
    }
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (value !== undefined && value !== null) form.append(name, typeof value === "string" ? value : JSON.stringify(value));
    }
    for (const reference of request.references) {
      if (reference.filePath) {
        const blob = await openAsBlob(path.join(this.options.dataDir, reference.filePath), { type: reference.mime });
        form.append("image", blob, reference.name);
      } else if (reference.sourceUrl) {
        form.append("image", reference.sourceUrl);
      }
    }
    return { form };
  }

  private fail(id: string, error: unknown): void {
    const problem = error instanceof HttpError ? { code: error.code, message: error.message } : { code: "internal_error", message: "The studio hit an unexpected error." };
    const { changed, generation } = this.options.ledger.transition(id, "failed", { error: problem });
    if (changed) this.publish(generation);
  }

  private publish(generation: Generation): void {
    this.options.events.publishGeneration(generation);
  }
}

function guessMime(url: string, kind: GenerationKind): string {
  const extension = /\.(\w+)(?:[?#]|$)/.exec(url)?.[1]?.toLowerCase();
  const known: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp", gif: "image/gif", mp4: "video/mp4", webm: "video/webm" };
  return (extension && known[extension]) ?? (kind === "image" ? "image/png" : "video/mp4");
}
