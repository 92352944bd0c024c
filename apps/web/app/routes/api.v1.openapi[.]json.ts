import type { LoaderFunctionArgs } from "@remix-run/node";
import { openApiDocument } from "~/features/api/openapi.server";
import { apiAction, apiGet, CACHE } from "~/utils/api.server";

/** `GET /api/v1/openapi.json`: the OpenAPI 3.1 description of this API. */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.document, async () =>
    openApiDocument(args.context.env.publicUrl ?? new URL(args.request.url).origin),
  );

export const action = apiAction;
