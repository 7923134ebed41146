/**
 * The studio server's own API (under /api/studio), shared by the server and the web app.
 * Provider resources live in provider.ts; these describe the ledger's view of them.
 */
import { z } from "zod";
import { taskErrorSchema, videoTaskStatusSchema } from "./provider";

/** Header every state-changing browser request carries (CSRF defence together with the Origin check). */
export const STUDIO_REQUEST_HEADER = "x-studio-request";

export const generationKindSchema = z.enum(["image", "video"]);
export type GenerationKind = z.infer<typeof generationKindSchema>;

/** Image generations use the same four states as video tasks: pending, processing, success, failed. */
export const generationStatusSchema = videoTaskStatusSchema;
export type GenerationStatus = z.infer<typeof generationStatusSchema>;

export const generationParamsSchema = z.object({
  aspect_ratio: z.string().optional(),
  size: z.string().optional(),
});
export type GenerationParams = z.infer<typeof generationParamsSchema>;

export const referenceImageSchema = z.object({
  id: z.string(),
  /** Served by the studio server, e.g. /api/studio/references/<id>. */
  url: z.string(),
  mime: z.string(),
  name: z.string(),
  bytes: z.number().int(),
  /** Where a URL reference came from; null for an uploaded file. */
  sourceUrl: z.string().nullable(),
});
export type ReferenceImage = z.infer<typeof referenceImageSchema>;

export const generationOutputSchema = z.object({
  index: z.number().int(),
  /** Mirrored file served by the studio (/media/...), or the provider URL while mirroring is under way. */
  url: z.string(),
  /** WebP thumbnail for the gallery; null until made. */
  thumbnailUrl: z.string().nullable(),
  /** Video cover (poster), mirrored; null for images or when the provider gave none. */
  coverUrl: z.string().nullable(),
  mime: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type GenerationOutput = z.infer<typeof generationOutputSchema>;

export const statusChangeSchema = z.object({ status: generationStatusSchema, at: z.number().int() });
export type StatusChange = z.infer<typeof statusChangeSchema>;

export const generationSchema = z.object({
  id: z.string(),
  kind: generationKindSchema,
  status: generationStatusSchema,
  prompt: z.string(),
  model: z.string(),
  params: generationParamsSchema,
  references: z.array(referenceImageSchema),
  outputs: z.array(generationOutputSchema),
  /** The provider's task id (videos only). */
  providerTaskId: z.string().nullable(),
  error: taskErrorSchema.nullable(),
  favourite: z.boolean(),
  /** Unix milliseconds. */
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  completedAt: z.number().int().nullable(),
  /** Provider-reported processing time in seconds, when a webhook delivery carried it. */
  taskCostTime: z.number().nullable(),
  statusHistory: z.array(statusChangeSchema),
});
export type Generation = z.infer<typeof generationSchema>;

const booleanQuery = z.enum(["true", "false"]).transform((value) => value === "true");

export const generationListQuerySchema = z.object({
  kind: generationKindSchema.optional(),
  status: generationStatusSchema.optional(),
  model: z.string().min(1).optional(),
  /** Text searched in prompts (case-insensitive substring). */
  q: z.string().min(1).max(3000).optional(),
  /** Unix milliseconds, inclusive. */
  from: z.coerce.number().int().optional(),
  to: z.coerce.number().int().optional(),
  favourite: booleanQuery.optional(),
  cursor: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type GenerationListQuery = z.infer<typeof generationListQuerySchema>;

export const generationPageSchema = z.object({
  items: z.array(generationSchema),
  /** Pass as `cursor` to get the next (older) page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type GenerationPage = z.infer<typeof generationPageSchema>;

export const favouriteBodySchema = z.object({ favourite: z.boolean() });

export const studioConfigSchema = z.object({
  imageModels: z.array(z.string()),
  videoModels: z.array(z.string()),
  aspectRatios: z.array(z.string()),
  videoSizes: z.array(z.string()),
  limits: z.object({
    promptMaxLength: z.number().int(),
    maxReferenceImages: z.number().int(),
    maxReferenceImageBytes: z.number().int(),
    acceptedImageTypes: z.array(z.string()),
  }),
  /** True when the server runs its embedded sandbox provider. */
  sandbox: z.boolean(),
});
export type StudioConfig = z.infer<typeof studioConfigSchema>;

/** GET /api/studio/session: whether the studio asks for its token, and whether this caller has it. */
export const sessionSchema = z.object({ required: z.boolean(), authenticated: z.boolean() });
export type Session = z.infer<typeof sessionSchema>;

/** Server-sent event `generation` on GET /api/studio/events carries one Generation as JSON. */
export const STUDIO_EVENT_GENERATION = "generation";
/** Server-sent event `deleted` carries {"id": "..."} when a generation is removed. */
export const STUDIO_EVENT_DELETED = "deleted";
