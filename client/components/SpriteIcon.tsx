import type { IconNode } from "../lib/types";

// Icons drawn by name with <use>: each icon's path data is sent once, as a <symbol
// id="i-NAME">, either in the page's own inline sprite (IconSprite, for the few icons its
// sections show at once) or in a sprite file the server serves as an immutable asset (the
// 42 services' icons, for menus and lists). An island then needs only names in its props.
// The stroke style comes from the .icon class (client/styles.css), keeping each use small.

interface SpriteIconProps {
  name: string;
  className?: string;
  /** The sprite file's URL; the page's inline sprite when absent. */
  sprite?: string;
}

/** Draws an icon from a sprite by its lucide name. Decorative: hidden from assistive tech. */
export function SpriteIcon({ name, className = "h-6 w-6", sprite = "" }: SpriteIconProps) {
  return (
    <svg className={`icon ${className}`} aria-hidden="true">
      <use href={`${sprite}#i-${name}`} />
    </svg>
  );
}

/** The sprite: every icon the page uses, once. Rendered by the server only, before the
 * content that uses it. */
export function IconSprite({ icons }: { icons: Record<string, IconNode> }) {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false" className="hidden">
      {Object.entries(icons).map(([name, node]) => (
        <symbol key={name} id={`i-${name}`} viewBox="0 0 24 24">
          {node.map(([tag, attrs], i) => {
            const Tag = tag as "path";
            return <Tag key={i} {...attrs} />;
          })}
        </symbol>
      ))}
    </svg>
  );
}
