//! Times in the business's time zone (`site.time_zone`), for the console's pages and its
//! date filters.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

use crate::store::{FunnelState, ZoneOffsets};

const DAY_MS: i64 = 86_400_000;
/// 2100-01-01 UTC: the database gets the zone's offsets up to then.
const OFFSETS_UNTIL_S: i64 = 4_102_444_800;

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
            Ok(t) => t.to_zoned_datetime(self.tz.clone()).strftime("%Y-%m-%d %H:%M %Z").to_string(),
            Err(_) => crate::time::human_utc(ms),
        }
    }

    /// "2026-11-22 08:45:07 EST (UTC-05:00)", for the consent record.
    pub fn local_precise(&self, ms: i64) -> String {
        match Timestamp::from_millisecond(ms) {
            Ok(t) => t
                .to_zoned_datetime(self.tz.clone())
                .strftime("%Y-%m-%d %H:%M:%S %Z (UTC%:z)")
                .to_string(),
            Err(_) => crate::time::human_utc(ms),
        }
    }

    /// The zone as UTC offsets from 1970 to 2100, for the database's daily counts
    /// (`business_zone`): the offset in force in 1970, then one row per change.
    pub fn offsets(&self) -> ZoneOffsets {
        let offset_ms = |t: Timestamp| i64::from(self.tz.to_offset(t).seconds()) * 1000;
        let mut offsets = vec![(0, offset_ms(Timestamp::UNIX_EPOCH))];
        let end = Timestamp::from_second(OFFSETS_UNTIL_S).unwrap_or(Timestamp::MAX);
        for t in self.tz.following(Timestamp::UNIX_EPOCH).take_while(|t| t.timestamp() < end) {
            let (from, offset) = (t.timestamp().as_millisecond(), i64::from(t.offset().seconds()) * 1000);
            if offsets.last().is_some_and(|(_, o)| *o != offset) {
                offsets.push((from, offset));
            }
        }
        ZoneOffsets {
            zone: self.name.clone(),
            offsets,
        }
    }

    /// The local day of an instant: days since 1970-01-01 here (what `lead_days` counts by).
    pub fn day_of(&self, ms: i64) -> i64 {
        let offset = Timestamp::from_millisecond(ms)
            .map(|t| i64::from(self.tz.to_offset(t).seconds()) * 1000)
            .unwrap_or(0);
        (ms + offset).div_euclid(DAY_MS)
    }

    /// The date of a local day number.
    pub fn date_of(day: i64) -> Option<Date> {
        Date::new(1970, 1, 1).ok()?.checked_add(jiff::Span::new().try_days(day).ok()?).ok()
    }

    /// The first instant of a local day number, in UTC ms.
    pub fn day_number_start_ms(&self, day: i64) -> Option<i64> {
        Some(
            Self::date_of(day)?
                .to_zoned_datetime(self.tz.clone())
                .ok()?
                .timestamp()
                .as_millisecond(),
        )
    }

    /// The first instant of a YYYY-MM-DD day here, in UTC ms.
    pub fn day_start_ms(&self, date: &str) -> Option<i64> {
        let date: Date = date.trim().parse().ok()?;
        Some(date.to_zoned_datetime(self.tz.clone()).ok()?.timestamp().as_millisecond())
    }

    /// The first instant after a YYYY-MM-DD day here (the end of a range that includes it).
    pub fn day_end_ms(&self, date: &str) -> Option<i64> {
        let date: Date = date.trim().parse().ok()?;
        Some(
            date.tomorrow()
                .ok()?
                .to_zoned_datetime(self.tz.clone())
                .ok()?
                .timestamp()
                .as_millisecond(),
        )
    }
}

/// How this server's zone stands to the one the database counts days in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneAgreement {
    Agrees,
    /// `business_zone` is empty: the server running the scheduled jobs writes it at its
    /// next round (days are UTC's until then).
    NotYetWritten,
    /// Another zone, or the same one with other rules (another time zone database).
    Differs,
}

impl ZoneAgreement {
    pub fn of(own: &Zone, counted: &FunnelState) -> Self {
        if counted.zone.offsets.is_empty() {
            ZoneAgreement::NotYetWritten
        } else if counted.zone == own.offsets() {
            ZoneAgreement::Agrees
        } else {
            ZoneAgreement::Differs
        }
    }

    pub fn differs(&self) -> bool {
        *self == ZoneAgreement::Differs
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

    #[test]
    fn local_days_follow_the_offsets_the_database_gets() {
        let z = Zone::new("America/New_York");
        let o = z.offsets();
        assert_eq!(o.zone, "America/New_York");
        assert_eq!(o.offsets[0], (0, -5 * 3_600_000));
        // 2025-03-09 07:00 UTC: EDT begins; 2025-11-02 06:00 UTC: EST again.
        assert!(o.offsets.contains(&(1_741_503_600_000, -4 * 3_600_000)), "{:?}", &o.offsets[..4]);
        assert!(o.offsets.contains(&(1_762_063_200_000, -5 * 3_600_000)));
        assert!(o.offsets.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 != w[1].1));
        // What the database computes from them is the local day here, on both sides of a change.
        let db_day = |ms: i64| {
            let (_, off) = o.offsets.iter().rev().find(|(from, _)| *from <= ms).copied().unwrap_or((0, 0));
            (ms + off).div_euclid(DAY_MS)
        };
        for ms in [
            1_741_503_599_999,
            1_741_503_600_000,
            1_762_063_199_999,
            1_762_063_200_000,
            1_736_917_200_000,
        ] {
            assert_eq!(db_day(ms), z.day_of(ms), "{ms}");
        }
        // 2025-01-15 00:00 EST is day 20103, and back.
        let day = z.day_of(1_736_917_200_000);
        assert_eq!(Zone::date_of(day).map(|d| d.to_string()).as_deref(), Some("2025-01-15"));
        assert_eq!(z.day_number_start_ms(day), Some(1_736_917_200_000));
        assert_eq!(z.day_of(1_736_917_199_999), day - 1);
        assert_eq!(Zone::new("UTC").offsets().offsets, vec![(0, 0)]);
    }
}
