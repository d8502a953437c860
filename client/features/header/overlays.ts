// The header's overlays as one module, loaded (with import()) when the visitor first opens
// any of them. One module rather than one per overlay: the code they share with the
// service pages' callback island (the form, the dialogs) then falls into the same chunks
// that island already uses, instead of being split into more, smaller ones.
export { default as HeaderOverlay, type HeaderOverlayState } from "./HeaderOverlay";
export { default as ServiceRequestDialog } from "./ServiceRequestDialog";
