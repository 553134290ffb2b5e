//! UCCI protocol.
