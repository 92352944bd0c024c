/**
 * `/embed/auth`: the sign-in popup of the partner iframe. It runs first-party on our origin (a
 * top-level window), so the normal login form and session cookie work here; it hands the iframe
 * a single-use token, never the session itself.
 */
import { normalizeOrigin } from "@game/core";
import { createEmbedHandoff, getPartnerByKey } from "@game/db";
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { getUser, requireUser } from "~/utils/auth.server";

async function partnerAndOrigin(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const key = url.searchParams.get("partner") ?? "";
  const partner = key ? await getPartnerByKey(context.db, key) : undefined;
  if (!partner) {
    throw data({ message: "This site is not a Gravity Fantasy partner." }, { status: 404 });
  }
  const origin = normalizeOrigin(url.searchParams.get("origin") ?? "");
  // Only a page the partner listed may ask for a sign-in in its name.
  if (!origin || !partner.origins.includes(origin)) {
    throw data({ message: `This page is not one of ${partner.name}'s sites.` }, { status: 403 });
  }
  return { partner, origin };
}

export async function loadEmbedAuth(request: Request, context: AppLoadContext) {
  const { partner, origin } = await partnerAndOrigin(request, context);
  const user = await getUser(request, context);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
  }
  return data(
    { partnerName: partner.name, origin, username: user.username },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** "Continue": mints the single-use token the page then posts to the iframe that opened it. */
export async function embedAuthAction(request: Request, context: AppLoadContext) {
  const { partner, origin } = await partnerAndOrigin(request, context);
  const user = await requireUser(request, context);
  const { token } = await createEmbedHandoff(context.db, {
    accountId: user.id,
    partnerId: partner.id,
    origin,
    now: context.now(),
  });
  return data({ token }, { headers: { "Cache-Control": "no-store" } });
}
