// Whether something that unfolds (the navigation's Menu on a phone, its Admin group) is open:
// going to another page folds it again.
import { useState } from "react";
import { useLocation } from "react-router";

export function useFoldOnNavigate(): [boolean, (open: boolean) => void] {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  if (openedAt !== pathname) {
    setOpenedAt(pathname);
    setOpen(false);
  }
  return [open, setOpen];
}
