/** The hidden field bots fill in and people never see (server: leads::validate::HONEYPOT_FIELD). */
export const HONEYPOT_FIELD = "hp_website";
