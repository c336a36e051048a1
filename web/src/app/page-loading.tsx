// What shows while the app fetches a page that loads on demand, on a first visit straight to it.
import { LoadingMessage } from "../components/loading-message.tsx";

export function PageLoading() {
  return (
    <main className="main" id="main-content">
      <div className="width-container">
        <LoadingMessage>Loading VICS…</LoadingMessage>
      </div>
    </main>
  );
}
