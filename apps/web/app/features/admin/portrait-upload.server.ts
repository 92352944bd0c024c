/**
 * The dashboard's portrait upload: one or several image files in one multipart post, each stored
 * through the same service as `game-admin racers portraits <folder>` (checked by content, resized,
 * matched by Picture value or First-Last), and audited as the signed-in admin.
 */
import { PORTRAIT_MAX_BYTES, type PortraitResult, storePortrait, webActor } from "@game/db";
import {
  type AppLoadContext,
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { logError } from "~/utils/log.server";

export type PortraitUploadResult =
  | { ok: true; results: PortraitResult[] }
  | { ok: false; error: string; results?: PortraitResult[] };

/** Files in one post; the body limit (5 MB in all) comes first anyway. */
export const PORTRAIT_FILES_MAX = 100;

const MB = PORTRAIT_MAX_BYTES / (1024 * 1024);

export async function uploadPortraits(
  request: Request,
  context: AppLoadContext,
  admin: { id: number; email: string },
): Promise<{ result: PortraitUploadResult; status: number }> {
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: PORTRAIT_MAX_BYTES }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) {
      return {
        result: { ok: false, error: `An image is larger than ${MB} MB: nothing was saved.` },
        status: 413,
      };
    }
    return { result: { ok: false, error: "The upload could not be read." }, status: 400 };
  }
  const files = form
    .getAll("portraits")
    .filter((f): f is File => f instanceof Blob && f.size > 0 && "name" in f);
  if (files.length === 0) {
    return { result: { ok: false, error: "Choose one or more image files first." }, status: 400 };
  }
  if (files.length > PORTRAIT_FILES_MAX) {
    return {
      result: {
        ok: false,
        error: `At most ${PORTRAIT_FILES_MAX} files at once: use game-admin racers portraits for a whole folder.`,
      },
      status: 400,
    };
  }
  const results: PortraitResult[] = [];
  try {
    for (const file of files) {
      results.push(
        await storePortrait(context.db, {
          fileName: file.name,
          bytes: new Uint8Array(await file.arrayBuffer()),
          actor: webActor(admin),
        }),
      );
    }
  } catch (error) {
    logError("Portrait upload failed", error);
    return {
      result: { ok: false, error: "The database refused the upload.", results },
      status: 500,
    };
  }
  return { result: { ok: true, results }, status: 200 };
}
