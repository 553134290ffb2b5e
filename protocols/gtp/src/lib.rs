//! GTP v2.
