import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { requirements } from "./fixtures.js";
import { RequirementChecklist } from "./requirement-checklist.js";

describe("RequirementChecklist", () => {
  it("lists each requirement as met or not, with its detail", () => {
    render(<RequirementChecklist requirements={requirements} />);
    const list = screen.getByRole("list", { name: "Team requirements" });
    const items = list.querySelectorAll("li");
    expect(items).toHaveLength(4);
    expect(items[0]!.textContent).toContain("6 riders");
    expect(items[0]!.textContent).toContain("(not met)");
    expect(items[0]!.textContent).toContain("4/6");
    expect(items[1]!.textContent).toContain("(met)");
    expect(items[1]!.getAttribute("data-met")).toBe("true");
    expect(screen.getByText("2 requirements not met.")).toBeTruthy();
  });

  it("says when everything is met", () => {
    render(<RequirementChecklist requirements={requirements.map((r) => ({ ...r, met: true }))} />);
    expect(screen.getByText("All requirements met.")).toBeTruthy();
  });

  it("takes a custom title and heading level, or none", () => {
    const { rerender } = render(
      <RequirementChecklist requirements={requirements} title="Rules" headingLevel={2} />,
    );
    expect(screen.getByRole("heading", { level: 2, name: "Rules" })).toBeTruthy();
    rerender(<RequirementChecklist requirements={requirements} title={null} />);
    expect(screen.queryByRole("heading")).toBeNull();
  });

  it("shows empty, loading and error states", () => {
    const { rerender } = render(<RequirementChecklist requirements={[]} />);
    expect(screen.getByText("No requirements.")).toBeTruthy();
    rerender(<RequirementChecklist requirements={[]} loading loadingMessage="Checking..." />);
    expect(screen.getByRole("status").textContent).toBe("Checking...");
    rerender(<RequirementChecklist requirements={requirements} error />);
    expect(screen.getByRole("alert").textContent).toBe("Something went wrong.");
  });
});
