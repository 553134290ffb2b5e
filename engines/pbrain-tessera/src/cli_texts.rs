//! What this engine's command line says where it differs from the other gomoku engine's
//! (read by the shared `gomoku_cli`).

/// `--hash`'s help: the manager's `INFO max_memory` may lower the table.
pub(crate) const HASH_HELP: &str = "Transposition table in MiB (INFO max_memory may lower it)";
/// `--log-level`'s default: off, since Piskvork reads a brain's stderr as protocol output.
pub(crate) const LOG_LEVEL: &str = "off";
/// `--log-level`'s help.
pub(crate) const LOG_LEVEL_HELP: &str =
    "Log level (to stderr or --log-file, never stdout). Off unless asked for: Piskvork reads a \
                              brain's stderr as if it were protocol output";
