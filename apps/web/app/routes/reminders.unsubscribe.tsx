/**
 * /reminders/unsubscribe?u=ID&t=TOKEN: the unsubscribe link of every deadline reminder, and the
 * target of its List-Unsubscribe header. Opening it (GET) changes nothing: it shows whether
 * reminders are on, with a button to switch them. Only a POST switches them: that button, or a
 * mail app's RFC 8058 one-click `List-Unsubscribe=One-Click` POST, which turns them off. Mail
 * scanners that prefetch links therefore unsubscribe no one (docs/decisions/0143).
 */
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  remindersOn,
  setRemindersOn,
  unsubscribeLinkUser,
} from "~/features/account/reminders.server";

export const meta: MetaFunction = () => [{ title: "Deadline reminders · Gravity Fantasy" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const id = await unsubscribeLinkUser(new URL(request.url), context);
  if (id === null) return data({ ok: false as const, on: false }, { status: 400 });
  return { ok: true as const, on: await remindersOn(context, id) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const id = await unsubscribeLinkUser(new URL(request.url), context);
  if (id === null) return data({ ok: false as const, on: false }, { status: 400 });
  const form = await request.formData().catch(() => new FormData());
  // The page's "Turn reminders back on"; anything else (the page's "Turn off reminders", a mail
  // app's one-click POST) turns them off. Explicit, not a toggle: posting twice changes nothing.
  const on = form.get("intent") === "resubscribe";
  await setRemindersOn(context, id, on);
  return { ok: true as const, on };
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  if (!loaded.ok) {
    return (
      <main className="page page--narrow">
        <h1>Deadline reminders</h1>
        <p role="alert">
          This link is not valid. You can turn reminders off in{" "}
          <Link to="/account/reminders">your account</Link>.
        </p>
      </main>
    );
  }
  // The loader runs again after a POST, so its answer is the state now.
  const on = loaded.on;
  const status = posted?.ok
    ? on
      ? "Deadline reminders are on again: you will get one 24 hours before a round locks when your team needs you."
      : "Done: you will no longer get deadline reminders."
    : on
      ? "Deadline reminders are on: you get one 24 hours before a round locks when your team needs you."
      : "Deadline reminders are off.";
  return (
    <main className="page page--narrow">
      <h1>Deadline reminders</h1>
      <p role="status">{status}</p>
      <Form method="post">
        <input type="hidden" name="intent" value={on ? "unsubscribe" : "resubscribe"} />
        <button type="submit" className="button">
          {on ? "Turn off reminders" : "Turn reminders back on"}
        </button>
      </Form>
      <p>
        You can change this at any time in <Link to="/account/reminders">your account</Link>.
      </p>
    </main>
  );
}
