//! The Library's clock: the real one, or — for tests through real processes — a fixed
//! instant named by `LIBRARY_CLOCK` (RFC 3339, e.g. `2026-12-24T10:00:00-08:00`), read once
//! at start. The answerer (which day "today" is) and the booking form (which dates and
//! times are still ahead) read the same clock, always seen in the demo time zone
//! ([`forms::TIMEZONE`]).

use jiff::{Timestamp, ZonedDateTime as Zoned};

/// The variable naming a fixed instant.
pub const CLOCK_ENV: &str = "LIBRARY_CLOCK";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clock {
    fixed: Option<Timestamp>,
}

impl Clock {
    /// The real clock.
    pub const fn real() -> Self {
        Self { fixed: None }
    }

    /// Always `instant`.
    pub const fn fixed(instant: Timestamp) -> Self {
        Self { fixed: Some(instant) }
    }

    /// `LIBRARY_CLOCK` when set (an RFC 3339 instant), else the real clock; a value that is
    /// no instant is an error naming the variable.
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Self, String> {
        match env(CLOCK_ENV).map(|v| v.trim().to_string()).filter(|v| !v.is_empty()) {
            None => Ok(Self::real()),
            Some(v) => v
                .parse::<Timestamp>()
                .map(Self::fixed)
                .map_err(|e| format!("{CLOCK_ENV}: not an rfc 3339 instant: {e}")),
        }
    }

    /// Now, in the demo time zone.
    pub fn now(self) -> Zoned {
        forms::in_demo_tz(self.fixed.unwrap_or_else(Timestamp::now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_is_read_from_the_environment() {
        let env = |v: &'static str| move |k: &str| (k == CLOCK_ENV).then(|| v.to_string());
        let clock = Clock::from_env(&env("2026-12-24T10:00:00-08:00")).unwrap();
        let now = clock.now();
        assert_eq!((now.date().to_string(), now.hour()), ("2026-12-24".to_string(), 10));
        // an instant given in UTC is still seen in Pacific Time
        let late = Clock::from_env(&env("2026-12-05T07:30:00Z")).unwrap().now();
        assert_eq!(late.date().to_string(), "2026-12-04");
        assert!(Clock::from_env(&env("tomorrow")).unwrap_err().starts_with("LIBRARY_CLOCK: "));
        assert_eq!(Clock::from_env(&|_| None).unwrap(), Clock::real());
        assert_eq!(Clock::from_env(&env("  ")).unwrap(), Clock::real());
    }
}
