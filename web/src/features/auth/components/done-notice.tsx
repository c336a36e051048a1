// A form's success notice: it takes focus as it appears, so a screen reader and the keyboard
// start from what was done.
import { useLayoutEffect, useRef, type ReactNode } from "react";

export function DoneNotice({
  title,
  children,
}: {
  title: string;
  /** What follows from it, in a paragraph or more. */
  children: ReactNode;
}) {
  const notice = useRef<HTMLDivElement>(null);
  // A layout effect: the notice takes focus in the same commit as it appears.
  useLayoutEffect(() => {
    notice.current?.focus();
  }, []);
  return (
    <div
      ref={notice}
      className="notice notice--success"
      role="status"
      tabIndex={-1}
    >
      <p className="notice__title">{title}</p>
      {children}
    </div>
  );
}
