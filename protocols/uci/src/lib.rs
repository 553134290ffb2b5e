//! UCI protocol (work in progress).
