// The app as the browser runs it: providers around a browser router over the app's routes.
// A declarative router (BrowserRouter), not a data router: the app loads no data through the
// router, and the data router's code was about 20 kB of the first download (decision 046).
import { BrowserRouter } from "react-router";
import { AppProviders } from "./providers.tsx";
import { AppRoutes } from "./routes.tsx";

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
