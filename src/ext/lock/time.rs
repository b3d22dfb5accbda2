//! Timestamps for ext.lock's `installed`: UTC, ISO 8601, whole seconds.

use std::time::{SystemTime, UNIX_EPOCH};

/// `time` as `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds, rounded down).
pub fn utc_timestamp(time: SystemTime) -> String {
    let seconds = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
        Err(e) => {
            let before = e.duration();
            let whole = i64::try_from(before.as_secs()).unwrap_or(i64::MAX);
            -whole - i64::from(before.subsec_nanos() > 0)
        }
    };
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    let of_day = seconds.rem_euclid(86_400);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // Both are in range by construction: day 1..=31, month 1..=12.
    (year, month as u32, day as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_iso_8601_seconds() {
        let at = |secs: u64| utc_timestamp(UNIX_EPOCH + Duration::from_secs(secs));
        // Each checked with `date -u -d @SECONDS +%Y-%m-%dT%H:%M:%SZ`.
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(1_788_862_462), "2026-09-08T10:14:22Z");
        assert_eq!(at(68_169_600), "1972-02-29T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_709_208_000), "2024-02-29T12:00:00Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
        assert_eq!(at(253_402_300_799), "9999-12-31T23:59:59Z");
        let sub_second = UNIX_EPOCH + Duration::from_millis(1_788_862_462_999);
        assert_eq!(utc_timestamp(sub_second), "2026-09-08T10:14:22Z");
    }

    #[test]
    fn timestamps_before_1970_round_down() {
        let before = |d: Duration| utc_timestamp(UNIX_EPOCH - d);
        assert_eq!(before(Duration::from_secs(1)), "1969-12-31T23:59:59Z");
        assert_eq!(before(Duration::from_millis(500)), "1969-12-31T23:59:59Z");
        assert_eq!(before(Duration::from_secs(86_400)), "1969-12-31T00:00:00Z");
    }

    #[test]
    fn every_day_of_four_centuries_follows_the_previous_one() {
        let mut previous = civil_from_days(-1);
        assert_eq!(previous, (1969, 12, 31));
        for days in 0..146_097 {
            let (y, m, d) = civil_from_days(days);
            let (py, pm, pd) = previous;
            let next_day = (y, m) == (py, pm) && d == pd + 1;
            let next_month = y == py && m == pm + 1 && d == 1;
            let next_year = y == py + 1 && (m, d, pm, pd) == (1, 1, 12, 31);
            assert!(
                next_day || next_month || next_year,
                "{days}: {previous:?} -> {:?}",
                (y, m, d)
            );
            previous = (y, m, d);
        }
        assert_eq!(previous, (2369, 12, 31));
    }
}
