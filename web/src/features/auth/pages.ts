// The sign-in feature's pages and actions, loaded on demand (index.ts's authPages): they bring
// zod and the sign-in schemas, which the pages of every visit do without.
export { SignInPage, type SignInState } from "./components/sign-in-page.tsx";
export { SignInLinkPage } from "./components/sign-in-link-page.tsx";
export { SetPasswordPage } from "./components/set-password-page.tsx";
export { AccountPage } from "./components/account-page.tsx";
export { signOut } from "./api/auth-api.ts";
