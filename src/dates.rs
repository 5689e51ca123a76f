//! Dates: the `YYYY-MM-DD` shape every date in content takes, and the day that "future" and
//! "stale" are measured from (`--today`, else `SOURCE_DATE_EPOCH`, else the system clock).
//! Every step reads dates from here.

use crate::error::{Error, Result};
use chrono::NaiveDate;

/// Resolves the day from an optional `--today` value and the environment.
pub fn today(flag: Option<&str>) -> Result<NaiveDate> {
    if let Some(text) = flag {
        return NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| Error::Usage {
            message: format!("--today {text}: not a date; write it as YYYY-MM-DD"),
        });
    }
    if let Ok(epoch) = std::env::var("SOURCE_DATE_EPOCH") {
        let seconds: i64 = epoch.trim().parse().map_err(|_| Error::Usage {
            message: format!("SOURCE_DATE_EPOCH={epoch}: not a number of seconds"),
        })?;
        return chrono::DateTime::from_timestamp(seconds, 0)
            .map(|t| t.date_naive())
            .ok_or_else(|| Error::Usage {
                message: format!("SOURCE_DATE_EPOCH={epoch}: out of range"),
            });
    }
    Ok(chrono::Local::now().date_naive())
}

/// A `YYYY-MM-DD` date, exactly that shape, that exists in the calendar.
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let number = |range: std::ops::Range<usize>| {
        bytes[range].iter().try_fold(0u32, |n, b| {
            b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
        })
    };
    let year = i32::try_from(number(0..4)?).ok()?;
    NaiveDate::from_ymd_opt(year, number(5..7)?, number(8..10)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_must_be_real_and_exactly_shaped() {
        assert!(parse_date("2026-11-09").is_some());
        assert!(parse_date("2026-02-30").is_none());
        assert!(parse_date("2026-1-09").is_none());
        assert!(parse_date("09/11/2026").is_none());
    }
}
