import type { ReactNode } from "react";
import { LEGAL_UPDATED } from "./site";

export interface LegalSection {
  /** Anchor of the section (`/tos#accounts`). */
  id: string;
  title: string;
  body: ReactNode;
}

/** A legal page: title, date, a table of contents, then the numbered sections. */
export function LegalPage(props: { title: string; intro: ReactNode; sections: LegalSection[] }) {
  return (
    <main className="page page--narrow legal">
      <h1>{props.title}</h1>
      <p className="muted">Last updated {LEGAL_UPDATED}</p>
      <div className="legal-intro">{props.intro}</div>
      <nav className="toc" aria-labelledby="toc-title">
        <h2 id="toc-title">Contents</h2>
        <ol>
          {props.sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      {props.sections.map((s, i) => (
        <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="legal-section">
          <h2 id={`${s.id}-title`}>
            {i + 1}. {s.title}
          </h2>
          {s.body}
        </section>
      ))}
    </main>
  );
}
