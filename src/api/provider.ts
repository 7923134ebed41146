/**
 * The provider's contract, from shared/seeds/000_7d75b77a60b6111b.txt.
 * One zod schema per resource, with its inferred type beside it.
 */
import { z } from "zod";

export const PROMPT_MAX_LENGTH = 3000;
/** The spec's recommended polling interval for GET /api/ai/videos/{taskId}. */
export const POLL_INTERVAL_MS = 5000;

export const providerPaths = {
  images: "/api/ai/images/generations",
  videos: "/api/ai/videos",
  video: (taskId: string) => `/api/ai/videos/${encodeURIComponent(taskId)}`,
} as const;

export const taskIdSchema = z.string().regex(/^\d{1,20}$/, "Task ids are numeric strings.");

const promptSchema = z
  .string({ error: "prompt must be a string." })
  .trim()
  .min(1, "prompt is required.")
  .max(PROMPT_MAX_LENGTH, `prompt must be at most ${PROMPT_MAX_LENGTH} characters.`);

const modelSchema = z.string({ error: "model must be a string." }).trim().min(1, "model is required.");

const httpUrlSchema = z
  .string()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http or https URL.");

/** JSON bodies carry reference images as one URL or an array of URLs. */
export const imageUrlsSchema = z.union([httpUrlSchema, z.array(httpUrlSchema)]);

// ---- Image generation (synchronous) ----

export const imageGenerationRequestSchema = z.object({
  prompt: promptSchema,
  model: modelSchema,
  image: imageUrlsSchema.optional(),
  aspect_ratio: z
    .string()
    .regex(/^\d{1,2}:\d{1,2}$/, "aspect_ratio must look like 16:9 or 1:1.")
    .optional(),
});
export type ImageGenerationRequest = z.infer<typeof imageGenerationRequestSchema>;

export const imageResultSchema = z.object({
  created: z.number().int(),
  data: z.array(z.object({ url: z.string() })),
});
export type ImageResult = z.infer<typeof imageResultSchema>;

// ---- Video submission (asynchronous) ----

export const videoSubmissionRequestSchema = z.object({
  prompt: promptSchema,
  model: modelSchema,
  image: imageUrlsSchema.optional(),
  size: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/, "size must look like 1280x720.")
    .optional(),
  webhookUrl: httpUrlSchema.optional(),
  callback_url: httpUrlSchema.optional(),
});
export type VideoSubmissionRequest = z.infer<typeof videoSubmissionRequestSchema>;

export const videoTaskStatusSchema = z.enum(["pending", "processing", "success", "failed"]);
export type VideoTaskStatus = z.infer<typeof videoTaskStatusSchema>;
export function isTerminalStatus(status: VideoTaskStatus): status is "success" | "failed" {
  return status === "success" || status === "failed";
}

export const taskAcceptanceSchema = z.object({
  id: taskIdSchema,
  status: z.literal("pending"),
  message: z.string(),
});
export type TaskAcceptance = z.infer<typeof taskAcceptanceSchema>;

export const taskErrorSchema = z.object({ code: z.string(), message: z.string() });
export type TaskError = z.infer<typeof taskErrorSchema>;

export const videoTaskRecordSchema = z.object({
  id: taskIdSchema,
  object: z.literal("video"),
  created: z.number().int(),
  model: z.string(),
  status: videoTaskStatusSchema,
  data: z.array(z.object({ url: z.string(), cover_url: z.string().nullable() })),
  error: taskErrorSchema.nullable(),
});
export type VideoTaskRecord = z.infer<typeof videoTaskRecordSchema>;

// ---- Completion webhook ----

export const taskResultSchema = z.object({
  id: taskIdSchema,
  object: z.literal("task_result"),
  created: z.number().int(),
  status: z.enum(["success", "failed"]),
  result: z.object({
    images: z.array(z.object({ fileUrl: z.string(), fileType: z.string() })),
  }),
  error: z.string().nullable(),
  /** The spec mentions taskCostTime without placing it; accepted at the top level when present. */
  taskCostTime: z.number().optional(),
});
export type TaskResult = z.infer<typeof taskResultSchema>;
