/**
 * The database layer's rules: its services query and store, they do not write the web app's
 * words or addresses (a mail's text and links come from @game/core, shared by the app and the
 * CLI), and each service holds what its name says.
 */
import { readdirSync, readFileSync } from "node:fs";
import { reminderMessage } from "@game/core";
import { describe, expect, it } from "vitest";

const SERVICES = new URL("./services/", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, SERVICES), "utf8");

/** A source without its comments (a comment may name a page or quote a mail). */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

const services = readdirSync(SERVICES)
  .filter((f) => f.endsWith(".ts") && !/\.test\.ts$|\.fixtures\.ts$/.test(f))
  .map((file) => ({ file, code: code(read(file)) }));

/** The web app's pages a mail links to, and what any address looks like. */
const WEB_ADDRESSES = [
  /https?:\/\//,
  /["'`/](team-setup|account|reminders\/unsubscribe|confirm-email|reset-password|login|signup)\b/,
  /["'`]\/(players|racers|leagues|competitions|game)\//,
];

/** A mail's words: a greeting, a template's placeholders. */
const MAIL_WORDS = [/["'`\n]\s*(Hi|Hello|Dear) [{$A-Za-z]/, /\{\{\w+\}\}/];

function offenders(patterns: RegExp[]): string[] {
  return services.flatMap(({ file, code }) =>
    patterns.flatMap((p) => {
      const m = p.exec(code);
      return m ? [`${file}: ${m[0]}`] : [];
    }),
  );
}

describe("db services", () => {
  it("finds the services", () => {
    expect(services.map((s) => s.file)).toEqual(
      expect.arrayContaining(["reminders.ts", "rankings.ts", "profiles.ts"]),
    );
  });

  it("strips comments but keeps strings", () => {
    expect(code('const a = "https://x"; // https://y\n/* Hi {{name}} */')).toBe(
      'const a = "https://x"; \n',
    );
  });

  it("write no web address or page of the app", () => {
    expect(offenders(WEB_ADDRESSES)).toEqual([]);
  });

  it("write no mail text: the words come from @game/core", () => {
    expect(offenders(MAIL_WORDS)).toEqual([]);
    const reminder = reminderMessage("https://game.example");
    const round = { id: 1, name: "Round" };
    const sentences = [
      ...reminder.text(round).split("\n"),
      reminder.noTeam,
      reminder.fixTeam,
    ].flatMap((line) => line.split(/(?<=[.:?!])\s+/).filter((s) => /^[A-Z(].{15,}/.test(s)));
    expect(sentences.length).toBeGreaterThan(3);
    const copied = services.flatMap(({ file, code }) =>
      sentences.filter((s) => code.includes(s)).map((s) => `${file}: ${s}`),
    );
    expect(copied).toEqual([]);
  });

  it("the rules catch what they are for", () => {
    const sample = 'const t = `Hi {{name}},\nYour team: ` + base + "/team-setup?game=" + id;';
    expect(WEB_ADDRESSES.some((p) => p.test(sample))).toBe(true);
    expect(MAIL_WORDS.every((p) => p.test(sample))).toBe(true);
    expect(WEB_ADDRESSES.some((p) => p.test('"https://game.example"'))).toBe(true);
  });

  it("rankings.ts holds the rankings: player and racer pages are in profiles.ts", () => {
    const declared = (source: string) =>
      [
        ...source.matchAll(/^export\s+(?:async\s+)?(?:function|interface|type|const)\s+(\w+)/gm),
      ].map((m) => m[1]!);
    const rankings = declared(read("rankings.ts"));
    expect(rankings.filter((name) => /Profile|PickCounter|pickCounter/.test(name))).toEqual([]);
    expect(declared(read("profiles.ts"))).toEqual(
      expect.arrayContaining(["getPlayerProfile", "getRacerProfile", "pickCounter"]),
    );
    expect(readFileSync(new URL("./index.ts", import.meta.url), "utf8")).toContain(
      'export * from "./services/profiles.js";',
    );
  });
});
