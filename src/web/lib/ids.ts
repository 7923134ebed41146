let counter = 0;

/** A short id unique within this page (for draft items and toasts, never sent to the server). */
export function createLocalId(prefix = "id"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter.toString(36)}`;
}
