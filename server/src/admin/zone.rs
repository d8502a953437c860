//! Times in the business's time zone (`site.time_zone`), for the console's pages and its
//! date filters.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

pub struct Zone {
    tz: TimeZone,
    pub name: String,
}

impl Zone {
    /// The configured zone (checked at start; UTC should it ever fail to load).
    pub fn new(name: &str) -> Self {
        match TimeZone::get(name) {
            Ok(tz) => Self {
                tz,
                name: name.to_string(),
            },
            Err(_) => Self {
                tz: TimeZone::UTC,
                name: "UTC".into(),
            },
        }
    }

    /// "2026-11-22 08:45 EST".
    pub fn local(&self, ms: i64) -> String {
        match Timestamp::from_millisecond(ms) {
            Ok(t) => t.to_zoned(self.tz.clone()).strftime("%Y-%m-%d %H:%M %Z").to_string(),
            Err(_) => crate::time::human_utc(ms),
        }
    }

    /// "2026-11-22 08:45:07 EST (UTC-05:00)", for the consent record.
    pub fn local_precise(&self, ms: i64) -> String {
        match Timestamp::from_millisecond(ms) {
            Ok(t) => t.to_zoned(self.tz.clone()).strftime("%Y-%m-%d %H:%M:%S %Z (UTC%:z)").to_string(),
            Err(_) => crate::time::human_utc(ms),
        }
    }

    /// The first instant of a YYYY-MM-DD day here, in UTC ms.
    pub fn day_start_ms(&self, date: &str) -> Option<i64> {
        let date: Date = date.trim().parse().ok()?;
        Some(date.to_zoned(self.tz.clone()).ok()?.timestamp().as_millisecond())
    }

    /// The first instant after a YYYY-MM-DD day here (the end of a range that includes it).
    pub fn day_end_ms(&self, date: &str) -> Option<i64> {
        let date: Date = date.trim().parse().ok()?;
        Some(date.tomorrow().ok()?.to_zoned(self.tz.clone()).ok()?.timestamp().as_millisecond())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_times_and_days_in_new_york() {
        let z = Zone::new("America/New_York");
        // 2025-01-15 13:45 UTC is 08:45 EST; 2025-07-15 13:45 UTC is 09:45 EDT.
        assert_eq!(z.local(1_736_948_700_000), "2025-01-15 08:45 EST");
        assert_eq!(z.local(1_752_587_100_000), "2025-07-15 09:45 EDT");
        assert_eq!(z.local_precise(1_736_948_700_000), "2025-01-15 08:45:00 EST (UTC-05:00)");
        assert_eq!(z.day_start_ms("2025-01-15"), Some(1_736_917_200_000));
        assert_eq!(z.day_end_ms("2025-01-15"), Some(1_737_003_600_000));
        assert_eq!(z.day_start_ms("15/01/2025"), None);
        assert_eq!(Zone::new("Not/AZone").name, "UTC");
    }
}
