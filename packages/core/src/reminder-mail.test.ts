import { describe, expect, it } from "vitest";
import { fillReminder, REMINDER_PLACEHOLDERS, reminderMessage } from "./reminder-mail.js";

const round = { id: 5, name: "Round 1: Windrock" };

describe("reminderMessage", () => {
  it("writes the round, the lock, why, the team and the unsubscribe links", () => {
    const message = reminderMessage("https://game.example/");
    const mail = fillReminder(message, round, {
      name: "eve",
      lock: "Sunday 18 April 2027, 06:00 CEST",
      noTeam: true,
      userId: 42,
      token: "ab12",
    });
    expect(mail.subject).toBe("Round 1: Windrock: teams lock Sunday 18 April 2027, 06:00 CEST");
    expect(mail.unsubscribe).toBe("https://game.example/reminders/unsubscribe?u=42&t=ab12");
    expect(mail.text).toBe(
      [
        "Hi eve,",
        "",
        "Round 1: Windrock locks on Sunday 18 April 2027, 06:00 CEST. You have no team for it yet: pick your six riders before the lock.",
        "",
        "Your team: https://game.example/team-setup?game=5",
        "",
        "You get this reminder once per round, 24 hours before the lock, when your team needs you.",
        "Stop these reminders: https://game.example/reminders/unsubscribe?u=42&t=ab12",
        "(You can turn them back on in your account: https://game.example/account/reminders)",
      ].join("\n"),
    );
  });

  it("asks for a fix when the team has a racer out", () => {
    const mail = fillReminder(reminderMessage("https://game.example"), round, {
      name: "out",
      lock: "x",
      noTeam: false,
      userId: 1,
      token: "t",
    });
    expect(mail.text).toContain("Your team needs fixing before the lock");
  });

  it("keeps a name that looks like a placeholder as it is", () => {
    const mail = fillReminder(reminderMessage("https://game.example"), round, {
      name: REMINDER_PLACEHOLDERS.lock,
      lock: "Sunday",
      noTeam: true,
      userId: 1,
      token: "t",
    });
    expect(mail.text.startsWith("Hi {{lock}},")).toBe(true);
  });
});
