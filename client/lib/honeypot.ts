/** The honeypot's name: a hidden field bots fill in and people never see (`<Honeypot />` in
 * client/ui/Honeypot.tsx). The server answers a request that fills it in as accepted and keeps
 * nothing (`HONEYPOT_FIELD` in server/src/forms/fields.rs). The `hp_` prefix is reserved for
 * honeypots, so it can never collide with a real field. */
export const HONEYPOT_FIELD = "hp_website";
