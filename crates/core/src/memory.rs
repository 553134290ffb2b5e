//! How much memory a table may have: what the user asked for, clamped to what the system can give.
//!
//! An engine must not abort because a GUI offered a large `Hash`: tables are allocated fallibly and
//! never sized beyond the memory the system reports as available.

/// Memory the system reports as available now, in MiB (`MemAvailable` in `/proc/meminfo`), or
/// `None` where it cannot tell.
#[must_use]
pub fn available_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|line| line.starts_with("MemAvailable:"))?;
    let kilobytes: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes / 1024)
}

/// The most a table may take when `asked` MiB are asked for: `asked`, but no more than half the
/// available memory (the rest is for the program, the GUI and an opponent engine), and at least
/// 1 MiB.
#[must_use]
pub fn clamp_mb(asked: usize) -> usize {
    let limit = available_mb().map_or(usize::MAX, |available| available / 2);
    asked.min(limit).max(1)
}

#[cfg(test)]
mod tests {
    use super::{available_mb, clamp_mb};

    #[test]
    fn requests_are_clamped_to_the_machine() {
        assert_eq!(clamp_mb(0), 1);
        assert_eq!(clamp_mb(16), 16);
        if let Some(available) = available_mb() {
            assert!(clamp_mb(usize::MAX / 2) <= available);
        }
    }
}
