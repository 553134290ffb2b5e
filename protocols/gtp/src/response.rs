//! GTP responses: `=[id] result` or `?[id] message`, then an empty line.

use std::fmt;
use std::str::FromStr;

/// One complete response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// The command succeeded; `text` may span several lines (never an empty one).
    Success {
        /// The command's id, echoed.
        id: Option<u32>,
        /// The result.
        text: String,
    },
    /// The command failed.
    Failure {
        /// The command's id, echoed.
        id: Option<u32>,
        /// The error message (`unknown command`, `illegal move`…).
        message: String,
    },
}

impl Response {
    /// A success with `text`.
    pub fn success(id: Option<u32>, text: impl Into<String>) -> Response {
        Response::Success { id, text: text.into() }
    }

    /// A failure with `message`.
    pub fn failure(id: Option<u32>, message: impl Into<String>) -> Response {
        Response::Failure { id, message: message.into() }
    }
}

/// The response's first characters: `=` or `?` and the id.
#[must_use]
pub fn header(success: bool, id: Option<u32>) -> String {
    let mark = if success { '=' } else { '?' };
    match id {
        Some(id) => format!("{mark}{id}"),
        None => mark.to_string(),
    }
}

impl fmt::Display for Response {
    /// The whole response, including the empty line that ends it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (success, id, text) = match self {
            Response::Success { id, text } => (true, *id, text),
            Response::Failure { id, message } => (false, *id, message),
        };
        write!(f, "{} {text}\n\n", header(success, id))
    }
}

/// A response text was not GTP.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a GTP response: {0:?}")]
pub struct ResponseError(pub String);

impl FromStr for Response {
    type Err = ResponseError;

    /// Parses a response as an engine prints it (the trailing empty line is optional).
    fn from_str(text: &str) -> Result<Response, ResponseError> {
        let bad = || ResponseError(text.to_string());
        let body = text.trim_end_matches(['\n', '\r']);
        let success = match body.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => return Err(bad()),
        };
        let rest = &body[1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let id = if digits > 0 { Some(rest[..digits].parse().map_err(|_| bad())?) } else { None };
        let text = rest[digits..].strip_prefix(' ').unwrap_or(&rest[digits..]).to_string();
        Ok(if success { Response::Success { id, text } } else { Response::Failure { id, message: text } })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_round_trip() {
        for response in [
            Response::success(Some(3), "D4"),
            Response::success(None, ""),
            Response::failure(Some(12), "illegal move"),
            Response::success(None, "\n   A B\n 2 . . 2"),
        ] {
            assert_eq!(response.to_string().parse::<Response>().unwrap(), response);
        }
        assert_eq!(Response::success(Some(1), "2").to_string(), "=1 2\n\n");
        assert!("hello".parse::<Response>().is_err());
    }
}
