import type { IconNode } from "../lib/types";

interface IconProps {
  node: IconNode | undefined;
  className?: string;
}

/** Draws a lucide icon from its node data. Decorative: hidden from assistive tech. */
export function Icon({ node, className = "h-6 w-6" }: IconProps) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
      focusable="false"
    >
      {(node ?? []).map(([tag, attrs], i) => {
        const Tag = tag as "path";
        // biome-ignore lint/suspicious/noArrayIndexKey: an icon's shapes never move: a shape's place is its identity
        return <Tag key={i} {...attrs} />;
      })}
    </svg>
  );
}
