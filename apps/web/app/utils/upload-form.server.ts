/**
 * The dashboard's file uploads (racers, results, portraits) read one way: a multipart post held
 * in memory, each part capped, and the uploaded file's name made safe to show and to record in
 * the audit log.
 */
import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";

/**
 * The posted form, or why not: `too-big` when a part passes `maxPartSize` bytes, `unreadable`
 * when the body is not multipart (or is broken).
 */
export async function readUploadForm(
  request: Request,
  maxPartSize: number,
): Promise<FormData | "too-big" | "unreadable"> {
  try {
    return await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return "too-big";
    return "unreadable";
  }
}

/**
 * An uploaded file's name (of a `File`, or as a script sent it), without path separators, at
 * most 120 characters; `fallback` when there is none.
 */
export function uploadFileName(file: unknown, fallback: string): string {
  const name = file instanceof File ? file.name : typeof file === "string" ? file : "";
  return name.replace(/[\\/]/g, "_").trim().slice(0, 120) || fallback;
}
