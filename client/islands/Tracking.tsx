import { useEffect } from "react";
import { installCallTracking, loadPixel, loadTrustedForm } from "../lib/tracking";
import { defineIsland, eager } from "./island";

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
