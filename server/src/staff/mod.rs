//! Staff access to the console: passwords (argon2id), session ids and their lifetimes,
//! CSRF tokens, the failed-login throttle, the clock they all read, and the `site staff`
//! command. No HTTP here: `admin/` turns these into cookies, redirects and pages.

pub mod cli;
pub mod clock;
pub mod password;
pub mod session;
pub mod throttle;

pub use clock::Clock;
pub use throttle::LoginThrottle;

/// What the console's access checks share, built once at start (in `AppState`).
#[derive(Default)]
pub struct Access {
    /// The time sessions and the throttle are judged by (tests move it forward).
    pub clock: Clock,
    pub throttle: LoginThrottle,
}
