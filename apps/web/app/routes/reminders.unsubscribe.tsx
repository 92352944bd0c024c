/**
 * /reminders/unsubscribe?u=ID&t=TOKEN: the one-click link of every deadline reminder (and the
 * target of its List-Unsubscribe header, which mail apps POST to). Opening it turns reminders off
 * at once; the page offers to turn them back on (also possible in the account).
 */
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { setRemindersOn, unsubscribeLinkUser } from "~/features/account/reminders.server";

export const meta: MetaFunction = () => [{ title: "Deadline reminders · Gravity Fantasy" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const id = await unsubscribeLinkUser(new URL(request.url), context);
  if (id === null) return data({ ok: false as const }, { status: 400 });
  await setRemindersOn(context, id, false);
  return { ok: true as const };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const id = await unsubscribeLinkUser(new URL(request.url), context);
  if (id === null) return data({ ok: false as const, on: false }, { status: 400 });
  const form = await request.formData().catch(() => new FormData());
  // "Turn them back on" from this page; anything else (a mail app's one-click POST) turns off.
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
  const on = posted?.ok && posted.on;
  return (
    <main className="page page--narrow">
      <h1>Deadline reminders</h1>
      <p role="status">
        {on
          ? "Deadline reminders are on again: you will get one 24 hours before a round locks when your team needs you."
          : "You will no longer get deadline reminders."}
      </p>
      {on ? null : (
        <Form method="post">
          <input type="hidden" name="intent" value="resubscribe" />
          <button type="submit" className="button">
            Turn reminders back on
          </button>
        </Form>
      )}
      <p>
        You can change this at any time in <Link to="/account/reminders">your account</Link>.
      </p>
    </main>
  );
}
