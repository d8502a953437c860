// The account dialog and the registration modal as one module, loaded (with import()) when
// the visitor first opens either: their shared parts then travel in one chunk, and neither
// weighs on the page's first load.
export { default as AccountDialog } from "./AccountDialog";
export { default as RegistrationDialog } from "./RegistrationDialog";
