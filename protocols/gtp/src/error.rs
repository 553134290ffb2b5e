//! Why a command line is refused before it reaches the session: the words below every module
//! that reads a command's arguments (vertices, colours, analysis options).

/// Why a command line was refused before reaching the session.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Not a command we know.
    #[error("unknown command")]
    Unknown,
    /// Missing or malformed arguments.
    #[error("syntax error")]
    Syntax,
}
