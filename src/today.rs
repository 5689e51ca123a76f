//! The day that "future" and "stale" are measured from: `--today`, else `SOURCE_DATE_EPOCH`,
//! else the system clock.

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
