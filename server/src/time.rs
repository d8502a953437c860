//! UTC timestamps as text, without a date library.

/// Milliseconds since the epoch → "2026-11-22T13:45:07.123Z".
pub fn rfc3339(ms: i64) -> String {
    let (date, secs_of_day, millis) = split(ms);
    format!(
        "{date}T{:02}:{:02}:{:02}.{millis:03}Z",
        secs_of_day / 3600,
        secs_of_day / 60 % 60,
        secs_of_day % 60
    )
}

/// Milliseconds since the epoch → "2026-11-22 13:45 UTC".
pub fn human_utc(ms: i64) -> String {
    let (date, secs_of_day, _) = split(ms);
    format!("{date} {:02}:{:02} UTC", secs_of_day / 3600, secs_of_day / 60 % 60)
}

/// Milliseconds since the epoch → "20261122T134507.123Z": for file names (sorts by time,
/// no colons).
pub fn file_stamp(ms: i64) -> String {
    let (date, secs_of_day, millis) = split(ms);
    format!(
        "{}T{:02}{:02}{:02}.{millis:03}Z",
        date.replace('-', ""),
        secs_of_day / 3600,
        secs_of_day / 60 % 60,
        secs_of_day % 60
    )
}

fn split(ms: i64) -> (String, i64, i64) {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    (format!("{y:04}-{m:02}-{d:02}"), secs.rem_euclid(86_400), millis)
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_known_instants() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(super::rfc3339(1_735_689_600_000), "2025-01-01T00:00:00.000Z");
        assert_eq!(super::rfc3339(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(super::human_utc(1_795_873_507_000), "2026-11-28 13:45 UTC");
        assert_eq!(super::file_stamp(951_782_400_123), "20000229T000000.123Z");
    }
}
