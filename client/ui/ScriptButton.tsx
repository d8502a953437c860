import type { ButtonHTMLAttributes, ReactNode, Ref } from "react";

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "className" | "type"> {
  ref?: Ref<HTMLButtonElement>;
  /** Where the link goes: what the button does, reached without a script. */
  href: string;
  /** The classes both share. */
  className: string;
  /** Added to the button's: it shows only while scripts run. */
  buttonClassName?: string;
  /** Added to the link's: it shows only when no script runs. */
  linkClassName?: string;
  /** The button's face. */
  children: ReactNode;
  /** The link's face, when it is not the button's. */
  linkChildren?: ReactNode;
}

/** A button that needs a script, and the link standing in for it when the browser runs none
 * (the `noscript:` variant, tailwind.config.cjs): both are in the HTML, and CSS shows one. */
export function ScriptButton({
  href,
  className,
  buttonClassName = "noscript:hidden",
  linkClassName = "hidden noscript:inline-block",
  children,
  linkChildren = children,
  ...button
}: Props) {
  return (
    <>
      <button type="button" {...button} className={`${className} ${buttonClassName}`}>
        {children}
      </button>
      <a href={href} className={`${className} ${linkClassName}`}>
        {linkChildren}
      </a>
    </>
  );
}
