import { useEffect } from "react";
import { defineIsland, eager } from "../../islands/island";
import { installCallTracking, loadPixel, loadTrustedForm } from "./tracking";

interface Props {
  /** The TrustedForm consent certificate script runs on the page. */
  trustedform: boolean;
  /** The ad pixel's id when the pixel is on. */
  pixelId: string | null;
}

/** Loads the third-party scripts configuration switched on. Renders nothing. */
function Tracking({ trustedform, pixelId }: Props) {
  useEffect(() => {
    if (pixelId) {
      loadPixel(pixelId);
      installCallTracking();
    }
    if (trustedform) loadTrustedForm();
  }, [pixelId, trustedform]);
  return null;
}

export default eager(defineIsland("Tracking", Tracking));
