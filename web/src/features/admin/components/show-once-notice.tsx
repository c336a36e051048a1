// A value VICS shows once (a one-time link, a webhook's secret): the words about it, the value
// in a read-only field, a copy button and Done. It takes focus when it appears.
import { useEffect, useId, useRef, useState, type ReactNode } from "react";

interface ShowOnceNoticeProps {
  /** What is shown; the notice takes focus again each time it changes. */
  showing: object;
  title: ReactNode;
  /** 2 for a page's notice (h2, heading-m), 3 for one inside a section (h3, heading-s). */
  headingLevel: 2 | 3;
  /** The field's label, such as "Link"; also names the value in the copied words. */
  label: string;
  value: string;
  copyLabel: string;
  buttonsClassName?: string;
  onDone: () => void;
  /** The words before the field. */
  children: ReactNode;
}

export function ShowOnceNotice({
  showing,
  title,
  headingLevel,
  label,
  value,
  copyLabel,
  buttonsClassName,
  onDone,
  children,
}: ShowOnceNoticeProps) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState<"yes" | "no">();
  const noun = label.toLowerCase();
  const Heading = headingLevel === 2 ? "h2" : "h3";

  useEffect(() => {
    box.current?.focus();
  }, [showing]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  }

  return (
    <div
      ref={box}
      className="notice notice--success"
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      role="region"
    >
      <Heading
        id={`${id}-title`}
        className={`notice__title ${headingLevel === 2 ? "heading-m" : "heading-s"}`}
      >
        {title}
      </Heading>
      {children}
      <label className="label" htmlFor={`${id}-${noun}`}>
        {label}
      </label>
      <input
        id={`${id}-${noun}`}
        className="input input--full one-time-link__input"
        readOnly
        value={value}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div
        className={
          buttonsClassName ? `button-group ${buttonsClassName}` : "button-group"
        }
      >
        <button type="button" className="button" onClick={() => void copy()}>
          {copyLabel}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={onDone}
        >
          Done
        </button>
      </div>
      <p className="one-time-link__copied" role="status">
        {copied === "yes"
          ? `${label} copied.`
          : copied === "no"
            ? `The browser did not let VICS copy it: select the ${noun} and copy it yourself.`
            : ""}
      </p>
    </div>
  );
}
