/** /account/reminders: the signed-in player turns deadline reminders on or off. */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ConfirmEmailBanner } from "~/features/account/confirm-email-banner";
import { remindersOn, setRemindersOn } from "~/features/account/reminders.server";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Deadline reminders · Gravity Fantasy" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return {
    email: user.email,
    confirmed: Boolean(user.emailConfirmedAt),
    on: await remindersOn(context, user.id),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData().catch(() => new FormData());
  await setRemindersOn(context, user.id, form.get("reminders") === "on");
  return { ok: true };
}

export default function AccountReminders() {
  const { email, confirmed, on } = useLoaderData<typeof loader>();
  return (
    <main className="page page--narrow">
      <h1>Deadline reminders</h1>
      <p>
        When a round locks within 24 hours and you have no team for it, or your team needs fixing (a
        racer is out), we send one e-mail to {email}: once per round, never more.
      </p>
      {confirmed ? null : (
        <ConfirmEmailBanner email={email} back="/account/reminders">
          Reminders go only to a confirmed address: they start once you open it.
        </ConfirmEmailBanner>
      )}
      <p role="status">Reminders are {on ? "on" : "off"}.</p>
      <Form method="post">
        <input type="hidden" name="reminders" value={on ? "off" : "on"} />
        <button type="submit" className="button button--primary">
          {on ? "Turn reminders off" : "Turn reminders on"}
        </button>
      </Form>
      <p>
        <Link to="/account">Back to your account</Link>
      </p>
    </main>
  );
}
