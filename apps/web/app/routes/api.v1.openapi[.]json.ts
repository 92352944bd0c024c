import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiAction, apiGet, CACHE } from "~/features/api/api.server";
import { openApiDocument } from "~/features/api/openapi.server";

/** `GET /api/v1/openapi.json`: the OpenAPI 3.1 description of this API. */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.document, async () =>
    openApiDocument(args.context.env.publicUrl ?? new URL(args.request.url).origin),
  );

export const action = apiAction;
