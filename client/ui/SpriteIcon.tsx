import type { IconNode } from "../lib/types";

// Icons drawn by name with <use>: each icon's path data is sent once, as a <symbol
// id="i-NAME">, either in the page's own inline sprite (IconSprite, for the few icons its
// sections show at once) or in a sprite file the server serves as an immutable asset
// (server/src/pages/sprite.rs). An island then needs only names in its props. The stroke
// style comes from the .icon class (client/styles.css), keeping each use small.
// Lists of services (menus, pickers) show the sprite file's views as lazy images instead
// (SpriteImage): a <use> of another file is fetched and cloned while the page is parsed,
// even inside a closed menu; a lazy image waits until it is shown.

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

interface SpriteImageProps {
  name: string;
  /** The sprite file's URL. */
  sprite: string;
  /** Width and height in CSS pixels (the class should say the same). */
  size: number;
  className?: string;
}

/** Shows a service's icon, in the menus' blue, from the sprite file's view `v-NAME`, loaded
 * only once it is on screen. Decorative: empty alt text. */
export function SpriteImage({ name, sprite, size, className = "" }: SpriteImageProps) {
  return <img src={`${sprite}#v-${name}`} alt="" width={size} height={size} loading="lazy" decoding="async" className={className} />;
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
            // biome-ignore lint/suspicious/noArrayIndexKey: an icon's shapes never move: a shape's place is its identity
            return <Tag key={i} {...attrs} />;
          })}
        </symbol>
      ))}
    </svg>
  );
}
