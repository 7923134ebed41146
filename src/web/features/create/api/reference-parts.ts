/** A reference image as sent: an uploaded file, or a link the server forwards. */
export type ReferenceInput = File | string;

/**
 * Appends references in their order (the studio server keeps the order of parts, so a first
 * frame stays first whether it is a file or a link): files as `image` parts, links as `image_url`.
 */
export function appendReferences(form: FormData, references: readonly ReferenceInput[], fallbackName: string): void {
  for (const reference of references) {
    if (typeof reference === "string") form.append("image_url", reference);
    else form.append("image", reference, reference.name || fallbackName);
  }
}
