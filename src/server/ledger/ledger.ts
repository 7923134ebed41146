import { randomUUID } from "node:crypto";
import type { Database, Statement } from "better-sqlite3";
import { isTerminalStatus } from "../../api/provider";
import type {
  Generation,
  GenerationKind,
  GenerationListQuery,
  GenerationOutput,
  GenerationPage,
  GenerationParams,
  GenerationStatus,
  ReferenceImage,
  StatusChange,
} from "../../api/studio";

export interface NewReference {
  id: string;
  mime: string;
  name: string;
  bytes: number;
  sourceUrl: string | null;
  /** Relative to the data dir, forward slashes; null for a URL reference the studio did not download. */
  filePath: string | null;
}

export interface NewGeneration {
  kind: GenerationKind;
  prompt: string;
  model: string;
  params: GenerationParams;
  references: NewReference[];
  /** Defaults to "pending". */
  status?: GenerationStatus;
  providerTaskId?: string | null;
  webhookToken?: string | null;
  deadlineAt?: number | null;
  /** Defaults to Date.now(). */
  now?: number;
}

export interface OutputInput {
  index: number;
  providerUrl: string;
  providerCoverUrl: string | null;
  mime: string;
}

export interface MirroredOutput {
  index: number;
  filePath: string;
  coverPath: string | null;
  thumbnailPath: string | null;
  width: number | null;
  height: number | null;
}

export interface StoredOutput extends OutputInput {
  filePath: string | null;
  coverPath: string | null;
  thumbnailPath: string | null;
  width: number | null;
  height: number | null;
}

export interface TransitionDetails {
  outputs?: OutputInput[];
  error?: { code: string; message: string } | null;
  taskCostTime?: number | null;
  now?: number;
}

export interface TransitionResult {
  changed: boolean;
  generation: Generation;
}

/** A list cursor this server did not issue (or that was mangled); the route answers 400. */
export class InvalidCursorError extends Error {
  override readonly name = "InvalidCursorError";
  constructor() {
    super("The cursor is not valid.");
  }
}

export class GenerationNotFoundError extends Error {
  override readonly name = "GenerationNotFoundError";
  constructor(readonly generationId: string) {
    super(`Generation ${generationId} does not exist.`);
  }
}

export class OutputNotFoundError extends Error {
  override readonly name = "OutputNotFoundError";
  constructor(
    readonly generationId: string,
    readonly index: number,
  ) {
    super(`Generation ${generationId} has no output ${index}.`);
  }
}

const DEFAULT_DUE_LIMIT = 100;

const GENERATION_COLUMNS = `id, kind, status, prompt, model, params_json, provider_task_id, error_code, error_message,
  favourite, created_at, updated_at, completed_at, task_cost_time`;
const UNFINISHED = `status IN ('pending', 'processing')`;

interface GenerationRow {
  id: string;
  kind: GenerationKind;
  status: GenerationStatus;
  prompt: string;
  model: string;
  params_json: string;
  provider_task_id: string | null;
  error_code: string | null;
  error_message: string | null;
  favourite: number;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  task_cost_time: number | null;
}

interface ReferenceRow {
  id: string;
  generation_id: string;
  mime: string;
  name: string;
  bytes: number;
  source_url: string | null;
  file_path: string | null;
}

interface OutputRow {
  generation_id: string;
  idx: number;
  provider_url: string;
  provider_cover_url: string | null;
  mime: string;
  file_path: string | null;
  cover_path: string | null;
  thumbnail_path: string | null;
  width: number | null;
  height: number | null;
}

interface StatusChangeRow {
  generation_id: string;
  status: GenerationStatus;
  at: number;
}

type ListParams = Record<string, string | number>;

function prepareStatements(db: Database) {
  return {
    insertGeneration: db.prepare<{
      id: string;
      kind: GenerationKind;
      status: GenerationStatus;
      prompt: string;
      model: string;
      paramsJson: string;
      providerTaskId: string | null;
      webhookToken: string | null;
      deadlineAt: number | null;
      completedAt: number | null;
      now: number;
    }>(
      `INSERT INTO generations (id, kind, status, prompt, model, params_json, provider_task_id, webhook_token,
         deadline_at, completed_at, created_at, updated_at)
       VALUES (@id, @kind, @status, @prompt, @model, @paramsJson, @providerTaskId, @webhookToken,
         @deadlineAt, @completedAt, @now, @now)`,
    ),
    insertReference: db.prepare<{
      id: string;
      generationId: string;
      position: number;
      mime: string;
      name: string;
      bytes: number;
      sourceUrl: string | null;
      filePath: string | null;
    }>(
      `INSERT INTO generation_references (id, generation_id, position, mime, name, bytes, source_url, file_path)
       VALUES (@id, @generationId, @position, @mime, @name, @bytes, @sourceUrl, @filePath)`,
    ),
    insertOutput: db.prepare<{
      generationId: string;
      idx: number;
      providerUrl: string;
      providerCoverUrl: string | null;
      mime: string;
      filePath: string | null;
      coverPath: string | null;
      thumbnailPath: string | null;
      width: number | null;
      height: number | null;
    }>(
      `INSERT INTO generation_outputs (generation_id, idx, provider_url, provider_cover_url, mime, file_path,
         cover_path, thumbnail_path, width, height)
       VALUES (@generationId, @idx, @providerUrl, @providerCoverUrl, @mime, @filePath,
         @coverPath, @thumbnailPath, @width, @height)`,
    ),
    insertStatusChange: db.prepare<[generationId: string, status: GenerationStatus, at: number]>(
      `INSERT INTO status_changes (generation_id, status, at) VALUES (?, ?, ?)`,
    ),
    generationById: db.prepare<[id: string], GenerationRow>(`SELECT ${GENERATION_COLUMNS} FROM generations WHERE id = ?`),
    generationByWebhookToken: db.prepare<[token: string], GenerationRow>(
      `SELECT ${GENERATION_COLUMNS} FROM generations WHERE webhook_token = ?`,
    ),
    // Task ids are unique at one provider, but a reset sandbox may reuse them: the newest wins.
    generationByProviderTaskId: db.prepare<[providerTaskId: string], GenerationRow>(
      `SELECT ${GENERATION_COLUMNS} FROM generations WHERE provider_task_id = ?
       ORDER BY created_at DESC, id DESC LIMIT 1`,
    ),
    // The *For statements take a JSON array of generation ids, so a page hydrates in one query per table.
    referencesFor: db.prepare<[idsJson: string], ReferenceRow>(
      `SELECT id, generation_id, mime, name, bytes, source_url, file_path FROM generation_references
       WHERE generation_id IN (SELECT value FROM json_each(?)) ORDER BY generation_id, position`,
    ),
    outputsFor: db.prepare<[idsJson: string], OutputRow>(
      `SELECT generation_id, idx, provider_url, provider_cover_url, mime, file_path, cover_path, thumbnail_path,
         width, height
       FROM generation_outputs WHERE generation_id IN (SELECT value FROM json_each(?)) ORDER BY generation_id, idx`,
    ),
    statusChangesFor: db.prepare<[idsJson: string], StatusChangeRow>(
      `SELECT generation_id, status, at FROM status_changes
       WHERE generation_id IN (SELECT value FROM json_each(?)) ORDER BY generation_id, at, id`,
    ),
    updateProviderTask: db.prepare<[providerTaskId: string, now: number, id: string]>(
      `UPDATE generations SET provider_task_id = ?, updated_at = ? WHERE id = ?`,
    ),
    updateStatus: db.prepare<{
      id: string;
      status: GenerationStatus;
      errorCode: string | null;
      errorMessage: string | null;
      completedAt: number | null;
      taskCostTime: number | null;
      now: number;
    }>(
      `UPDATE generations SET status = @status, error_code = @errorCode, error_message = @errorMessage,
         completed_at = @completedAt, task_cost_time = @taskCostTime, updated_at = @now,
         next_poll_at = CASE WHEN @completedAt IS NULL THEN next_poll_at ELSE NULL END
       WHERE id = @id`,
    ),
    fillTaskCostTime: db.prepare<[taskCostTime: number, now: number, id: string]>(
      `UPDATE generations SET task_cost_time = ?, updated_at = ? WHERE id = ? AND task_cost_time IS NULL`,
    ),
    deleteOutputs: db.prepare<[generationId: string]>(`DELETE FROM generation_outputs WHERE generation_id = ?`),
    updateMirroredOutput: db.prepare<{
      generationId: string;
      idx: number;
      filePath: string;
      coverPath: string | null;
      thumbnailPath: string | null;
      width: number | null;
      height: number | null;
    }>(
      `UPDATE generation_outputs SET file_path = @filePath,
         cover_path = COALESCE(@coverPath, cover_path), thumbnail_path = COALESCE(@thumbnailPath, thumbnail_path),
         width = COALESCE(@width, width), height = COALESCE(@height, height)
       WHERE generation_id = @generationId AND idx = @idx`,
    ),
    touch: db.prepare<[now: number, id: string]>(`UPDATE generations SET updated_at = ? WHERE id = ?`),
    referenceFile: db.prepare<[referenceId: string], { mime: string; name: string; file_path: string }>(
      `SELECT mime, name, file_path FROM generation_references WHERE id = ? AND file_path IS NOT NULL`,
    ),
    referenceFileInUse: db.prepare<[filePath: string], { found: number }>(
      `SELECT 1 AS found FROM generation_references WHERE file_path = ? LIMIT 1`,
    ),
    dueUnfinished: db.prepare<[now: number, limit: number], GenerationRow>(
      `SELECT ${GENERATION_COLUMNS} FROM generations
       WHERE ${UNFINISHED} AND kind = 'video' AND provider_task_id IS NOT NULL
         AND (next_poll_at IS NULL OR next_poll_at <= ?)
       ORDER BY created_at, id LIMIT ?`,
    ),
    updateNextPoll: db.prepare<[nextPollAt: number, id: string]>(`UPDATE generations SET next_poll_at = ? WHERE id = ?`),
    staleWithoutTask: db.prepare<[before: number], GenerationRow>(
      `SELECT ${GENERATION_COLUMNS} FROM generations
       WHERE ${UNFINISHED} AND provider_task_id IS NULL AND created_at < ?
       ORDER BY created_at, id`,
    ),
    successWithoutMedia: db
      .prepare<[], string>(
        `SELECT DISTINCT o.generation_id FROM generation_outputs o JOIN generations g ON g.id = o.generation_id
         WHERE g.status = 'success' AND (o.file_path IS NULL OR o.thumbnail_path IS NULL)`,
      )
      .pluck(),
    pastDeadline: db.prepare<[now: number], GenerationRow>(
      `SELECT ${GENERATION_COLUMNS} FROM generations
       WHERE ${UNFINISHED} AND deadline_at IS NOT NULL AND deadline_at <= ?
       ORDER BY created_at, id`,
    ),
    updateFavourite: db.prepare<[favourite: number, now: number, id: string]>(
      `UPDATE generations SET favourite = ?, updated_at = ? WHERE id = ?`,
    ),
    deleteGeneration: db.prepare<[id: string]>(`DELETE FROM generations WHERE id = ?`),
  };
}

/** The studio's durable record of every generation. All methods are synchronous. */
export class Ledger {
  private readonly statements: ReturnType<typeof prepareStatements>;
  /** One prepared statement per combination of list filters, made on first use. */
  private readonly listStatements = new Map<string, Statement<ListParams, GenerationRow>>();
  private readonly runCreate: (input: NewGeneration) => string;
  private readonly runTransition: (id: string, status: GenerationStatus, details: TransitionDetails) => TransitionResult;
  private readonly runRecordMirroredOutput: (id: string, output: MirroredOutput) => void;
  private readonly runDelete: (id: string) => { filePaths: string[] } | null;

  constructor(private readonly db: Database) {
    this.statements = prepareStatements(db);
    this.runCreate = db.transaction((input: NewGeneration) => this.insertGeneration(input));
    this.runTransition = db.transaction((id: string, status: GenerationStatus, details: TransitionDetails) =>
      this.applyTransition(id, status, details),
    );
    this.runRecordMirroredOutput = db.transaction((id: string, output: MirroredOutput) =>
      this.applyMirroredOutput(id, output),
    );
    this.runDelete = db.transaction((id: string) => this.applyDelete(id));
  }

  createGeneration(input: NewGeneration): Generation {
    return this.requireGeneration(this.runCreate(input));
  }

  attachProviderTask(id: string, providerTaskId: string): Generation {
    const result = this.statements.updateProviderTask.run(providerTaskId, Date.now(), id);
    if (result.changes === 0) throw new GenerationNotFoundError(id);
    return this.requireGeneration(id);
  }

  /**
   * Moves status forward. Idempotent: same status again -> changed:false. A terminal state (success|failed)
   * never changes again (changed:false). Allowed forward moves: pending->processing->success|failed,
   * pending->success|failed. processing->pending is ignored (changed:false). On success, `outputs` (if given)
   * replace the output rows (keeping any mirrored file paths for the same index+providerUrl). On failed, `error`
   * is stored. Sets completed_at on terminal. Records a status_changes row only when it changed.
   * A repeated terminal delivery may still fill in a taskCostTime the ledger lacks (changed stays false).
   */
  transition(id: string, status: GenerationStatus, details: TransitionDetails = {}): TransitionResult {
    return this.runTransition(id, status, details);
  }

  /** Records where the media mirror put an output's files. A null cover/thumbnail/size keeps what is stored. */
  recordMirroredOutput(id: string, output: MirroredOutput): Generation {
    this.runRecordMirroredOutput(id, output);
    return this.requireGeneration(id);
  }

  getGeneration(id: string): Generation | null {
    return this.hydrateOne(this.statements.generationById.get(id));
  }

  findByWebhookToken(token: string): Generation | null {
    return this.hydrateOne(this.statements.generationByWebhookToken.get(token));
  }

  findByProviderTaskId(providerTaskId: string): Generation | null {
    return this.hydrateOne(this.statements.generationByProviderTaskId.get(providerTaskId));
  }

  getStoredOutputs(id: string): StoredOutput[] {
    return this.statements.outputsFor.all(JSON.stringify([id])).map((row) => ({
      index: row.idx,
      providerUrl: row.provider_url,
      providerCoverUrl: row.provider_cover_url,
      mime: row.mime,
      filePath: row.file_path,
      coverPath: row.cover_path,
      thumbnailPath: row.thumbnail_path,
      width: row.width,
      height: row.height,
    }));
  }

  getReferenceFile(referenceId: string): { mime: string; name: string; filePath: string } | null {
    const row = this.statements.referenceFile.get(referenceId);
    return row ? { mime: row.mime, name: row.name, filePath: row.file_path } : null;
  }

  /** Newest first, keyset-paginated. Throws InvalidCursorError for a cursor it cannot read. */
  listGenerations(query: GenerationListQuery): GenerationPage {
    const conditions: string[] = [];
    const params: ListParams = { limit: query.limit + 1 };
    if (query.kind !== undefined) {
      conditions.push("kind = @kind");
      params.kind = query.kind;
    }
    if (query.status !== undefined) {
      conditions.push("status = @status");
      params.status = query.status;
    }
    if (query.model !== undefined) {
      conditions.push("model = @model");
      params.model = query.model;
    }
    if (query.q !== undefined) {
      // LIKE is case-insensitive for ASCII letters only (SQLite without ICU).
      conditions.push(`prompt LIKE @pattern ESCAPE '\\'`);
      params.pattern = `%${escapeLikePattern(query.q)}%`;
    }
    if (query.from !== undefined) {
      conditions.push("created_at >= @from");
      params.from = query.from;
    }
    if (query.to !== undefined) {
      conditions.push("created_at <= @to");
      params.to = query.to;
    }
    if (query.favourite !== undefined) {
      // A literal, not a parameter, so the partial favourite index can be used.
      conditions.push(query.favourite ? "favourite = 1" : "favourite = 0");
    }
    if (query.cursor !== undefined) {
      const cursor = decodeCursor(query.cursor);
      conditions.push("(created_at, id) < (@cursorCreatedAt, @cursorId)");
      params.cursorCreatedAt = cursor.createdAt;
      params.cursorId = cursor.id;
    }

    const where = conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
    const sql = `SELECT ${GENERATION_COLUMNS} FROM generations ${where}
      ORDER BY created_at DESC, id DESC LIMIT @limit`;
    const rows = this.listStatement(sql).all(params);

    const pageRows = rows.slice(0, query.limit);
    const last = pageRows.at(-1);
    const nextCursor = rows.length > query.limit && last ? encodeCursor(last.created_at, last.id) : null;
    return { items: this.hydrate(pageRows), nextCursor };
  }

  /** Video tasks not yet terminal, oldest first, whose next_poll_at is null or <= now. Only rows with a provider task. */
  listDueUnfinished(now: number, limit: number = DEFAULT_DUE_LIMIT): Generation[] {
    return this.hydrate(this.statements.dueUnfinished.all(now, limit));
  }

  /** Does nothing if the generation no longer exists. */
  scheduleNextPoll(id: string, nextPollAt: number): void {
    this.statements.updateNextPoll.run(nextPollAt, id);
  }

  /** Unfinished generations created before `before` with no provider task (e.g. the server died mid image request). */
  listStaleWithoutTask(before: number): Generation[] {
    return this.hydrate(this.statements.staleWithoutTask.all(before));
  }

  /** Unfinished generations whose deadline_at is set and <= now, oldest first. */
  listPastDeadline(now: number): Generation[] {
    return this.hydrate(this.statements.pastDeadline.all(now));
  }

  /** Successful generations with an output not yet mirrored (or without a thumbnail), for a retry. */
  listSuccessWithoutMedia(): string[] {
    return this.statements.successWithoutMedia.all();
  }

  setFavourite(id: string, favourite: boolean): Generation | null {
    const result = this.statements.updateFavourite.run(favourite ? 1 : 0, Date.now(), id);
    return result.changes === 0 ? null : this.getGeneration(id);
  }

  /**
   * Deletes the row (cascade) and returns every relative file path it owned (outputs, covers, thumbnails,
   * references) so the caller deletes them; null if not found. A reference file another generation still
   * uses is left out.
   */
  deleteGeneration(id: string): { filePaths: string[] } | null {
    return this.runDelete(id);
  }

  private insertGeneration(input: NewGeneration): string {
    const id = randomUUID();
    const now = input.now ?? Date.now();
    const status = input.status ?? "pending";
    this.statements.insertGeneration.run({
      id,
      kind: input.kind,
      status,
      prompt: input.prompt,
      model: input.model,
      paramsJson: JSON.stringify(input.params),
      providerTaskId: input.providerTaskId ?? null,
      webhookToken: input.webhookToken ?? null,
      deadlineAt: input.deadlineAt ?? null,
      completedAt: isTerminalStatus(status) ? now : null,
      now,
    });
    input.references.forEach((reference, position) => {
      this.statements.insertReference.run({
        id: reference.id,
        generationId: id,
        position,
        mime: reference.mime,
        name: reference.name,
        bytes: reference.bytes,
        sourceUrl: reference.sourceUrl,
        filePath: reference.filePath === null ? null : toStoredPath(reference.filePath),
      });
    });
    this.statements.insertStatusChange.run(id, status, now);
    return id;
  }

  private applyTransition(id: string, status: GenerationStatus, details: TransitionDetails): TransitionResult {
    const row = this.statements.generationById.get(id);
    if (!row) throw new GenerationNotFoundError(id);
    const now = details.now ?? Date.now();

    if (!isForwardMove(row.status, status)) {
      const taskCostTime = details.taskCostTime ?? null;
      if (row.status === status && isTerminalStatus(status) && taskCostTime !== null && row.task_cost_time === null) {
        this.statements.fillTaskCostTime.run(taskCostTime, now, id);
      }
      return { changed: false, generation: this.requireGeneration(id) };
    }

    const error = status === "failed" ? (details.error ?? null) : null;
    this.statements.updateStatus.run({
      id,
      status,
      errorCode: error?.code ?? null,
      errorMessage: error?.message ?? null,
      completedAt: isTerminalStatus(status) ? now : null,
      taskCostTime: details.taskCostTime ?? row.task_cost_time,
      now,
    });
    if (status === "success" && details.outputs) this.replaceOutputs(id, details.outputs);
    this.statements.insertStatusChange.run(id, status, now);
    return { changed: true, generation: this.requireGeneration(id) };
  }

  private replaceOutputs(id: string, outputs: OutputInput[]): void {
    const existing = new Map(this.statements.outputsFor.all(JSON.stringify([id])).map((row) => [row.idx, row]));
    this.statements.deleteOutputs.run(id);
    for (const output of outputs) {
      const previous = existing.get(output.index);
      const mirrored = previous?.provider_url === output.providerUrl ? previous : undefined;
      this.statements.insertOutput.run({
        generationId: id,
        idx: output.index,
        providerUrl: output.providerUrl,
        providerCoverUrl: output.providerCoverUrl,
        mime: output.mime,
        filePath: mirrored?.file_path ?? null,
        coverPath: mirrored?.cover_path ?? null,
        thumbnailPath: mirrored?.thumbnail_path ?? null,
        width: mirrored?.width ?? null,
        height: mirrored?.height ?? null,
      });
    }
  }

  private applyMirroredOutput(id: string, output: MirroredOutput): void {
    const result = this.statements.updateMirroredOutput.run({
      generationId: id,
      idx: output.index,
      filePath: toStoredPath(output.filePath),
      coverPath: output.coverPath === null ? null : toStoredPath(output.coverPath),
      thumbnailPath: output.thumbnailPath === null ? null : toStoredPath(output.thumbnailPath),
      width: output.width,
      height: output.height,
    });
    if (result.changes === 0) {
      if (!this.statements.generationById.get(id)) throw new GenerationNotFoundError(id);
      throw new OutputNotFoundError(id, output.index);
    }
    this.statements.touch.run(Date.now(), id);
  }

  private applyDelete(id: string): { filePaths: string[] } | null {
    const idsJson = JSON.stringify([id]);
    const outputs = this.statements.outputsFor.all(idsJson);
    const references = this.statements.referencesFor.all(idsJson);
    if (this.statements.deleteGeneration.run(id).changes === 0) return null;

    const filePaths = new Set<string>();
    for (const output of outputs) {
      for (const path of [output.file_path, output.cover_path, output.thumbnail_path]) {
        if (path !== null) filePaths.add(path);
      }
    }
    for (const reference of references) {
      if (reference.file_path !== null && !this.statements.referenceFileInUse.get(reference.file_path)) {
        filePaths.add(reference.file_path);
      }
    }
    return { filePaths: [...filePaths] };
  }

  private listStatement(sql: string): Statement<ListParams, GenerationRow> {
    let statement = this.listStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare<ListParams, GenerationRow>(sql);
      this.listStatements.set(sql, statement);
    }
    return statement;
  }

  private requireGeneration(id: string): Generation {
    const generation = this.getGeneration(id);
    if (!generation) throw new GenerationNotFoundError(id);
    return generation;
  }

  private hydrateOne(row: GenerationRow | undefined): Generation | null {
    return row ? (this.hydrate([row])[0] ?? null) : null;
  }

  /** Builds API generations for rows, keeping their order: one query each for references, outputs and history. */
  private hydrate(rows: GenerationRow[]): Generation[] {
    if (rows.length === 0) return [];
    const idsJson = JSON.stringify(rows.map((row) => row.id));
    const references = groupByGeneration(this.statements.referencesFor.all(idsJson));
    const outputs = groupByGeneration(this.statements.outputsFor.all(idsJson));
    const statusChanges = groupByGeneration(this.statements.statusChangesFor.all(idsJson));
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      status: row.status,
      prompt: row.prompt,
      model: row.model,
      params: JSON.parse(row.params_json) as GenerationParams,
      references: (references.get(row.id) ?? []).map(toReferenceImage),
      outputs: (outputs.get(row.id) ?? []).map(toGenerationOutput),
      providerTaskId: row.provider_task_id,
      error:
        row.error_code !== null || row.error_message !== null
          ? { code: row.error_code ?? "", message: row.error_message ?? "" }
          : null,
      favourite: row.favourite === 1,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      completedAt: row.completed_at,
      taskCostTime: row.task_cost_time,
      statusHistory: (statusChanges.get(row.id) ?? []).map(toStatusChange),
    }));
  }
}

function isForwardMove(from: GenerationStatus, to: GenerationStatus): boolean {
  if (isTerminalStatus(from)) return false;
  if (from === "pending") return to !== "pending";
  return isTerminalStatus(to);
}

function toReferenceImage(row: ReferenceRow): ReferenceImage {
  return {
    id: row.id,
    url: row.file_path !== null ? `/api/studio/references/${encodeURIComponent(row.id)}` : (row.source_url ?? ""),
    mime: row.mime,
    name: row.name,
    bytes: row.bytes,
    sourceUrl: row.source_url,
  };
}

function toGenerationOutput(row: OutputRow): GenerationOutput {
  return {
    index: row.idx,
    url: row.file_path !== null ? mediaUrl(row.file_path) : row.provider_url,
    thumbnailUrl: row.thumbnail_path !== null ? mediaUrl(row.thumbnail_path) : null,
    coverUrl: row.cover_path !== null ? mediaUrl(row.cover_path) : row.provider_cover_url,
    mime: row.mime,
    width: row.width,
    height: row.height,
  };
}

function toStatusChange(row: StatusChangeRow): StatusChange {
  return { status: row.status, at: row.at };
}

function groupByGeneration<Row extends { generation_id: string }>(rows: Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const group = groups.get(row.generation_id);
    if (group) group.push(row);
    else groups.set(row.generation_id, [row]);
  }
  return groups;
}

/** Mirrored files live under <dataDir>/media and are served at the same path: media/x/0.png → /media/x/0.png. */
function mediaUrl(filePath: string): string {
  return `/${filePath.split("/").map(encodeURIComponent).join("/")}`;
}

/** Stored paths are relative to the data dir with forward slashes; anything that could escape it is refused. */
function toStoredPath(filePath: string): string {
  const stored = filePath.replaceAll("\\", "/");
  const segments = stored.split("/");
  const escapes = /^[A-Za-z]:/.test(stored) || segments.some((s) => s === "" || s === "." || s === "..");
  if (escapes) throw new Error(`Ledger file paths must be relative to the data dir: ${JSON.stringify(filePath)}`);
  return stored;
}

function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(`${createdAt}:${id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const match = /^(\d{1,16}):(.+)$/s.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const createdAt = Number(match?.[1]);
  const id = match?.[2];
  // Re-encoding must give back the same text, so lenient base64 decoding cannot accept garbage.
  if (id === undefined || !Number.isSafeInteger(createdAt) || encodeCursor(createdAt, id) !== cursor) {
    throw new InvalidCursorError();
  }
  return { createdAt, id };
}
