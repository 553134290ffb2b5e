//! `tessera-arena`: matches between engines of any of the five protocols, and the statistics
//! that turn their results into Elo differences, error bars, LOS and SPRT decisions.

pub mod stats;
