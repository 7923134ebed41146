/**
 * UI state only: the draft form, open panels, selection, toasts and the theme. Server data lives
 * in react-query. Read one field per selector: `useStudioStore((s) => s.prompt)`.
 */
import { create } from "zustand";
import { createLocalId } from "../lib/ids";

export type Theme = "dark" | "light";
export type StudioMode = "image" | "video";
export type FrameSlotName = "first" | "last";
export type GalleryKind = "all" | "image" | "video";

/** A reference image in the draft: a local file or a URL the server will download. */
export type DraftImage =
  | { id: string; source: "file"; file: File; previewUrl: string }
  | { id: string; source: "url"; url: string; previewUrl: string };

export type ToastTone = "info" | "success" | "error";
export interface Toast {
  id: string;
  tone: ToastTone;
  title: string;
  description?: string;
}

export interface DraftSettings {
  mode: StudioMode;
  prompt: string;
  model: string;
  aspectRatio?: string;
  videoSize?: string;
}

interface StudioState {
  theme: Theme;
  mode: StudioMode;
  prompt: string;
  /** Empty means "the first model the server lists". */
  imageModel: string;
  videoModel: string;
  aspectRatio: string;
  imageCount: number;
  /** Empty means "the provider's default size". */
  videoSize: string;
  references: DraftImage[];
  firstFrame: DraftImage | null;
  lastFrame: DraftImage | null;
  /** Sentences about files that were refused, shown under the drop area. */
  intakeProblems: string[];

  galleryKind: GalleryKind;
  gallerySearch: string;
  galleryFavourites: boolean;

  /** The open lightbox: the generation shown and the gallery tile that opened it. */
  lightbox: { id: string; openerId: string } | null;

  /** Video task cards on screen, newest first. */
  videoCardIds: string[];
  dismissedVideoIds: string[];

  toasts: Toast[];
}

interface StudioActions {
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
  setMode: (mode: StudioMode) => void;
  setPrompt: (prompt: string) => void;
  setImageModel: (model: string) => void;
  setVideoModel: (model: string) => void;
  setAspectRatio: (ratio: string) => void;
  setImageCount: (count: number) => void;
  setVideoSize: (size: string) => void;
  addReferences: (images: DraftImage[]) => void;
  removeReference: (id: string) => void;
  moveReference: (id: string, delta: -1 | 1) => void;
  setFrame: (slot: FrameSlotName, image: DraftImage | null) => void;
  setIntakeProblems: (problems: string[]) => void;
  /** Replaces the draft with a previous generation's settings (Reuse settings). */
  loadDraft: (settings: DraftSettings, images: DraftImage[]) => void;

  setGalleryKind: (kind: GalleryKind) => void;
  setGallerySearch: (search: string) => void;
  setGalleryFavourites: (favourites: boolean) => void;

  openLightbox: (id: string) => void;
  showInLightbox: (id: string) => void;
  closeLightbox: () => void;

  trackVideos: (ids: readonly string[]) => void;
  dismissVideo: (id: string) => void;

  pushToast: (toast: Omit<Toast, "id">) => string;
  dismissToast: (id: string) => void;
}

export type StudioStore = StudioState & StudioActions;

export const initialStudioState: StudioState = {
  theme: "dark",
  mode: "image",
  prompt: "",
  imageModel: "",
  videoModel: "",
  aspectRatio: "1:1",
  imageCount: 1,
  videoSize: "",
  references: [],
  firstFrame: null,
  lastFrame: null,
  intakeProblems: [],
  galleryKind: "all",
  gallerySearch: "",
  galleryFavourites: false,
  lightbox: null,
  videoCardIds: [],
  dismissedVideoIds: [],
  toasts: [],
};

export function draftImageFromFile(file: File): DraftImage {
  return { id: createLocalId("ref"), source: "file", file, previewUrl: URL.createObjectURL(file) };
}

export function draftImageFromUrl(url: string): DraftImage {
  return { id: createLocalId("ref"), source: "url", url, previewUrl: url };
}

function release(image: DraftImage | null | undefined): void {
  if (image?.source === "file") URL.revokeObjectURL(image.previewUrl);
}

const THEME_KEY = "media-studio:theme";

function savedTheme(): Theme {
  try {
    const value = typeof localStorage === "undefined" ? null : localStorage.getItem(THEME_KEY);
    return value === "light" ? "light" : "dark";
  } catch {
    return "dark";
  }
}

export const useStudioStore = create<StudioStore>()((set, get) => ({
  ...initialStudioState,
  theme: savedTheme(),

  setTheme: (theme) => set({ theme }),
  toggleTheme: () => set({ theme: get().theme === "dark" ? "light" : "dark" }),
  setMode: (mode) => set({ mode, intakeProblems: [] }),
  setPrompt: (prompt) => set({ prompt }),
  setImageModel: (imageModel) => set({ imageModel }),
  setVideoModel: (videoModel) => set({ videoModel }),
  setAspectRatio: (aspectRatio) => set({ aspectRatio }),
  setImageCount: (imageCount) => set({ imageCount: Math.min(4, Math.max(1, Math.round(imageCount))) }),
  setVideoSize: (videoSize) => set({ videoSize }),

  addReferences: (images) => set({ references: [...get().references, ...images] }),
  removeReference: (id) => {
    const references = get().references;
    release(references.find((image) => image.id === id));
    set({ references: references.filter((image) => image.id !== id), intakeProblems: [] });
  },
  moveReference: (id, delta) => {
    const references = [...get().references];
    const from = references.findIndex((image) => image.id === id);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= references.length) return;
    const [moved] = references.splice(from, 1);
    if (moved) references.splice(to, 0, moved);
    set({ references });
  },
  setFrame: (slot, image) => {
    const key = slot === "first" ? "firstFrame" : "lastFrame";
    const previous = get()[key];
    if (previous && previous.id !== image?.id) release(previous);
    set(slot === "first" ? { firstFrame: image, intakeProblems: [] } : { lastFrame: image, intakeProblems: [] });
  },
  setIntakeProblems: (intakeProblems) => set({ intakeProblems }),
  loadDraft: (settings, images) => {
    const state = get();
    state.references.forEach(release);
    release(state.firstFrame);
    release(state.lastFrame);
    const isVideo = settings.mode === "video";
    set({
      mode: settings.mode,
      prompt: settings.prompt,
      ...(isVideo ? { videoModel: settings.model } : { imageModel: settings.model }),
      ...(settings.aspectRatio ? { aspectRatio: settings.aspectRatio } : {}),
      ...(isVideo ? { videoSize: settings.videoSize ?? "" } : {}),
      references: isVideo ? [] : images,
      firstFrame: isVideo ? (images[0] ?? null) : null,
      lastFrame: isVideo ? (images[1] ?? null) : null,
      intakeProblems: [],
    });
  },

  setGalleryKind: (galleryKind) => set({ galleryKind }),
  setGallerySearch: (gallerySearch) => set({ gallerySearch }),
  setGalleryFavourites: (galleryFavourites) => set({ galleryFavourites }),

  openLightbox: (id) => set({ lightbox: { id, openerId: id } }),
  showInLightbox: (id) => {
    const lightbox = get().lightbox;
    set({ lightbox: lightbox ? { ...lightbox, id } : { id, openerId: id } });
  },
  closeLightbox: () => set({ lightbox: null }),

  trackVideos: (ids) => {
    const { videoCardIds, dismissedVideoIds } = get();
    const fresh = ids.filter((id) => !videoCardIds.includes(id) && !dismissedVideoIds.includes(id));
    if (fresh.length > 0) set({ videoCardIds: [...fresh, ...videoCardIds] });
  },
  dismissVideo: (id) =>
    set({
      videoCardIds: get().videoCardIds.filter((cardId) => cardId !== id),
      dismissedVideoIds: [...get().dismissedVideoIds, id],
    }),

  pushToast: (toast) => {
    const id = createLocalId("toast");
    set({ toasts: [...get().toasts, { ...toast, id }].slice(-4) });
    return id;
  },
  dismissToast: (id) => set({ toasts: get().toasts.filter((toast) => toast.id !== id) }),
}));

// The theme is the only thing kept across visits; write it only when it changes.
useStudioStore.subscribe((state, previous) => {
  if (state.theme === previous.theme) return;
  try {
    localStorage.setItem(THEME_KEY, state.theme);
  } catch {
    // Private mode or storage full: the theme just won't be remembered.
  }
});

/** Back to a blank draft and closed panels (tests call this between cases). */
export function resetStudioStore(): void {
  useStudioStore.setState({ ...initialStudioState });
}
