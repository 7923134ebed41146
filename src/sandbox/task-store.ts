import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { taskErrorSchema, videoTaskStatusSchema } from "../api/provider";

/** A video task as the sandbox keeps it on disk, so tasks survive a restart like a real provider's would. */
export const storedTaskSchema = z.object({
  id: z.string(),
  model: z.string(),
  prompt: z.string(),
  size: z.string().nullable(),
  /** Unix seconds, as the status endpoint reports it. */
  created: z.number().int(),
  status: videoTaskStatusSchema,
  webhookUrl: z.string().nullable(),
  /** Reference frames, as file names under <mediaDir>/inputs. */
  inputFiles: z.array(z.string()),
  /** Output names under <mediaDir>/files. */
  output: z.object({ video: z.string(), cover: z.string() }).nullable(),
  error: taskErrorSchema.nullable(),
  webhookDelivered: z.boolean(),
});
export type StoredTask = z.infer<typeof storedTaskSchema>;

export class TaskStore {
  private readonly directory: string;

  constructor(mediaDir: string) {
    this.directory = path.join(mediaDir, "tasks");
  }

  async loadAll(): Promise<StoredTask[]> {
    await mkdir(this.directory, { recursive: true });
    const names = (await readdir(this.directory)).filter((name) => name.endsWith(".json"));
    const tasks: StoredTask[] = [];
    for (const name of names) {
      try {
        tasks.push(storedTaskSchema.parse(JSON.parse(await readFile(path.join(this.directory, name), "utf8"))));
      } catch {
        // A record cut short by a crash mid-write is skipped, not fatal: writes are atomic, so this is rare.
      }
    }
    return tasks;
  }

  /** Writes atomically (temp file + rename) so a crash never leaves half a record. */
  async save(task: StoredTask): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const target = path.join(this.directory, `${task.id}.json`);
    const temporary = `${target}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify(task));
    await rename(temporary, target);
  }
}
