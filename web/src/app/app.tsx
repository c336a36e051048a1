// The app as the browser runs it: providers around a browser router over the app's routes.
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { AppProviders } from "./providers.tsx";
import { appRoutes } from "./routes.tsx";

const router = createBrowserRouter(appRoutes);

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
