//! UTC timestamps as text (through `jiff`), for records, messages and file names.

use jiff::Timestamp;

/// Milliseconds since the epoch → "2026-11-22T13:45:07.123Z".
pub fn rfc3339(ms: i64) -> String {
    format!("{:.3}", timestamp(ms))
}

/// Milliseconds since the epoch → "2026-11-22 13:45 UTC".
pub fn human_utc(ms: i64) -> String {
    timestamp(ms).strftime("%Y-%m-%d %H:%M UTC").to_string()
}

/// Milliseconds since the epoch → "20261122T134507.123Z": for file names (sorts by time,
/// no colons).
pub fn file_stamp(ms: i64) -> String {
    timestamp(ms).strftime("%Y%m%dT%H%M%S%.3fZ").to_string()
}

/// The instant, held within the years -9999 to 9999 that `jiff` represents (a stored time
/// outside them is shown as the nearest end rather than failing).
fn timestamp(ms: i64) -> Timestamp {
    Timestamp::from_millisecond(ms).unwrap_or(if ms < 0 { Timestamp::MIN } else { Timestamp::MAX })
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_known_instants() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(super::rfc3339(1_735_689_600_000), "2025-01-01T00:00:00.000Z");
        assert_eq!(super::rfc3339(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(super::rfc3339(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(super::human_utc(1_795_873_507_000), "2026-11-28 13:45 UTC");
        assert_eq!(super::human_utc(1_795_873_507_999), "2026-11-28 13:45 UTC");
        assert_eq!(super::file_stamp(951_782_400_123), "20000229T000000.123Z");
        assert_eq!(super::file_stamp(1_795_873_507_000), "20261128T134507.000Z");
    }

    #[test]
    fn an_instant_beyond_the_calendar_is_held_at_its_end() {
        assert_eq!(super::rfc3339(i64::MAX), "9999-12-30T22:00:00.999Z");
        assert_eq!(super::human_utc(i64::MIN), "-9999-01-02 01:59 UTC");
    }
}
