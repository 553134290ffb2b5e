//! How much memory a table may have: what the user asked for, clamped to what the system can give.
//!
//! An engine must not abort because a GUI offered a large `Hash`: protocols advertise at most
//! [`max_table_mb`], tables are allocated fallibly and never sized beyond the memory the system
//! reports as available ([`clamp_mb`]), and a protocol tells the user when a table got less than
//! was asked ([`clamp_note`]).

/// The largest table any protocol advertises, whatever the machine: 64 GiB.
pub const MAX_TABLE_MB: usize = 65_536;

/// What protocols advertise when the machine's memory is unknown.
const UNKNOWN_MACHINE_MB: usize = 4096;

/// A field of `/proc/meminfo` in MiB, or `None` where it cannot be read.
#[cfg(not(windows))]
fn meminfo_mb(field: &str) -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|line| line.starts_with(field))?;
    let kilobytes: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes / 1024)
}

/// Memory the system reports as available now, in MiB (`MemAvailable` in `/proc/meminfo`; on
/// Windows the available physical memory), or `None` where it cannot tell.
#[must_use]
pub fn available_mb() -> Option<usize> {
    #[cfg(windows)]
    return windows::physical_memory().map(|memory| memory.available_mb);
    #[cfg(not(windows))]
    meminfo_mb("MemAvailable:")
}

/// The machine's physical memory in MiB (`MemTotal`; on Windows the total physical memory), or
/// `None` where it cannot tell.
#[must_use]
pub fn total_mb() -> Option<usize> {
    #[cfg(windows)]
    return windows::physical_memory().map(|memory| memory.total_mb);
    #[cfg(not(windows))]
    meminfo_mb("MemTotal:")
}

/// Windows tells its memory through `GlobalMemoryStatusEx`.
#[cfg(windows)]
mod windows {
    use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};

    pub(super) struct PhysicalMemory {
        pub(super) total_mb: usize,
        pub(super) available_mb: usize,
    }

    pub(super) fn physical_memory() -> Option<PhysicalMemory> {
        // SAFETY: MEMORYSTATUSEX is plain integers, for which all zeroes is a valid value.
        let mut status: MEMORYSTATUSEX = unsafe { std::mem::zeroed() };
        status.dwLength = std::mem::size_of::<MEMORYSTATUSEX>() as u32;
        // SAFETY: `status` is a writable MEMORYSTATUSEX whose dwLength holds its size, which is all
        // the call requires; it writes only within that struct.
        let succeeded = unsafe { GlobalMemoryStatusEx(&mut status) } != 0;
        let mb = |bytes: u64| usize::try_from(bytes / (1024 * 1024)).unwrap_or(usize::MAX);
        succeeded.then(|| PhysicalMemory { total_mb: mb(status.ullTotalPhys), available_mb: mb(status.ullAvailPhys) })
    }
}

/// The largest table size a protocol should advertise (UCI `Hash` max, UCCI `hashsize` max,
/// pbrain `MAX_HASH_SIZE`): half the machine's memory, at most [`MAX_TABLE_MB`], at least 16 MiB.
/// A value the machine could never give would be a promise the engine cannot keep.
#[must_use]
pub fn max_table_mb() -> usize {
    total_mb().map_or(UNKNOWN_MACHINE_MB, |total| total / 2).clamp(16, MAX_TABLE_MB)
}

/// The most a table may take when `asked` MiB are asked for: `asked`, but no more than half the
/// available memory (the rest is for the program, the GUI and an opponent engine), and at least
/// 1 MiB.
#[must_use]
pub fn clamp_mb(asked: usize) -> usize {
    let limit = available_mb().map_or(usize::MAX, |available| available / 2);
    asked.min(limit).max(1)
}

/// The message a protocol shows (as `info string`, `MESSAGE`, or on stderr) when a table got
/// `granted` MiB of the `asked`: `None` when it got what was asked.
#[must_use]
pub fn clamp_note(asked: usize, granted: usize) -> Option<String> {
    (granted < asked).then(|| format!("Hash clamped to {granted} MB"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_clamped_to_the_machine() {
        assert_eq!(clamp_mb(0), 1);
        assert_eq!(clamp_mb(16), 16);
        if let Some(available) = available_mb() {
            assert!(clamp_mb(usize::MAX / 2) <= available);
        }
    }

    #[test]
    fn the_advertised_maximum_fits_the_machine() {
        let max = max_table_mb();
        assert!((16..=MAX_TABLE_MB).contains(&max));
        if let Some(total) = total_mb() {
            assert!(max <= total.max(32) / 2 || max == 16);
        }
    }

    #[test]
    fn notes_only_when_less_was_granted() {
        assert_eq!(clamp_note(64, 64), None);
        assert_eq!(clamp_note(65_536, 1024).as_deref(), Some("Hash clamped to 1024 MB"));
    }
}
