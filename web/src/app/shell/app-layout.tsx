// The shell around every view: skip link, header with the rate-limit meter, navigation, main, footer.
import type { MouseEvent } from "react";
import { Link, Outlet, ScrollRestoration } from "react-router";
import { RateLimitMeter } from "../../components/rate-limit-meter.tsx";
import { PrimaryNav } from "./primary-nav.tsx";
import { useFocusMainOnAreaChange } from "./use-focus-main-on-area-change.ts";

const MAIN_ID = "main-content";

function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  // Focus main directly: a hash change would go through the router's history.
  event.preventDefault();
  document.getElementById(MAIN_ID)?.focus();
}

export function AppLayout() {
  useFocusMainOnAreaChange(MAIN_ID);
  return (
    <>
      <a href={`#${MAIN_ID}`} className="skip-link" onClick={skipToMain}>
        Skip to main content
      </a>
      <header className="app-header">
        <div className="app-header__inner width-container">
          <Link to="/" className="app-header__product">
            VICS
            <span className="app-header__tagline">
              Vehicle insurance and compliance checks
            </span>
          </Link>
          <RateLimitMeter />
        </div>
      </header>
      <PrimaryNav />
      {/* main spans the page and the width container sits inside it: as a flex item of the
          page's column, the container's auto margins would shrink it to its content, so a
          page with little on it (Fleet check) sat off to the right. */}
      <main id={MAIN_ID} className="main" tabIndex={-1}>
        <div className="width-container">
          <Outlet />
        </div>
      </main>
      <footer className="app-footer">
        <div className="width-container">
          <p>
            VICS checks vehicles against the Vehicle Insurance and Compliance
            Verification Service. Recent checks are kept in this browser only.
          </p>
        </div>
      </footer>
      <ScrollRestoration />
    </>
  );
}
