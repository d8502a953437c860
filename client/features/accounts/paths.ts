// Where the registration request form lives, in a module of its own: the header's and the
// hero's buttons link there without loading the account forms' code.

/** The no-JavaScript target of every registration button (server: pages::register). */
export const REGISTER_PATH = "/register";
/** Where a stored request lands (server: pages::register::REGISTERED_PATH). */
export const REGISTERED_PATH = "/register/thanks";
